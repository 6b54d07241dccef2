/**
 * The experiment file's schema. Strict everywhere: a misspelt field is an error, never a silently
 * ignored setting. Task entries are checked by tasks.ts, which knows the tasks.
 */
import { z } from "zod";
import { RUN_SETTINGS_SCHEMA } from "../run/index.js";

/** Arms become folder names and database keys: keep them to a safe, short alphabet. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_NAME = 64;
/** More repeats than this is a typo for a seed or a count of tasks; nobody runs 1,000 copies. */
export const MAX_REPEATS = 100;
/**
 * More candidates per task than this is a typo or a budget nobody meant: Agentless samples 40, and
 * every candidate is a whole run plus a grading run per test-based selector.
 */
export const MAX_SAMPLES = 100;
/** More workers than this starts more sandboxes and browsers than one machine holds. */
export const MAX_WORKERS = 64;

const armName = z
  .string({ error: "an arm's name is text" })
  .max(MAX_NAME, `an arm's name has at most ${MAX_NAME} characters`)
  .regex(NAME_PATTERN, "an arm's name is letters, digits, '.', '_' and '-', starting with a letter or digit");

/** Every run field is optional: what neither the arm nor base sets, the run's own default decides. */
const OPTIONAL_FIELDS = RUN_SETTINGS_SCHEMA.shape;
export const RunFieldsSchema = RUN_SETTINGS_SCHEMA;
export const ArmSchema = z.strictObject({ name: armName, ...OPTIONAL_FIELDS });

const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

const SAMPLES_MESSAGE = `must be a whole number from 1 to ${MAX_SAMPLES} — candidates per task (Agentless samples 40)`;

export const ExperimentSchema = z.strictObject({
  name: z
    .string({ error: "name is the experiment's name, as text" })
    .min(1, "name is empty")
    .regex(/^[^\n]*$/, "name is one line; put prose in description"),
  description: z.string({ error: "description is text" }).optional(),
  base: RunFieldsSchema.optional(),
  arms: z
    .array(ArmSchema, { error: "arms is a list of arms, or a map from arm name to its fields" })
    .min(1, "arms is empty: an experiment needs at least one arm"),
  tasks: z
    .array(z.unknown(), {
      error: "tasks is a list of task ids, globs, {suite: builtin}, {instances: FILE} or {cua: all}",
    })
    .min(1, "tasks is empty: list at least one task"),
  repeats: wholeNumber(1, MAX_REPEATS).default(1),
  samples: z
    .number({ error: SAMPLES_MESSAGE })
    .int(SAMPLES_MESSAGE)
    .min(1, SAMPLES_MESSAGE)
    .max(MAX_SAMPLES, SAMPLES_MESSAGE)
    .optional(),
  selectors: z
    .array(z.string({ error: "a selector is text, e.g. vote or regression>reproduction>vote" }), {
      error: "selectors is a list of selector chains, e.g. [oracle, vote, regression>reproduction>vote]",
    })
    .min(1, "selectors is empty: list a chain, e.g. [oracle, vote], or drop the field")
    .optional(),
  verifier: z.string({ error: "verifier is a model spec, e.g. anthropic:claude-sonnet-4-5" }).optional(),
  workers: wholeNumber(1, MAX_WORKERS).default(2),
  baseline: armName.optional(),
  seed: z
    .number({ error: "must be a whole number ≥ 0" })
    .int("must be a whole number ≥ 0")
    .min(0, "must be a whole number ≥ 0")
    .default(0),
});

export type ExperimentFile = z.output<typeof ExperimentSchema>;

/** The keys each object of the file takes, for "unknown field" messages. */
export const TOP_LEVEL_KEYS = Object.keys(ExperimentSchema.shape);
export const ARM_KEYS = Object.keys(ArmSchema.shape);
export const BASE_KEYS = Object.keys(RunFieldsSchema.shape);

/**
 * `arms` may be a map from name to fields; it is checked as the list it stands for. Returns the data
 * with arms as a list, and a problem when a map entry also says `name`.
 */
export function armsAsList(data: unknown): { data: unknown; mapForm: boolean; namedEntry?: string } {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { data, mapForm: false };
  const arms = (data as Record<string, unknown>).arms;
  if (typeof arms !== "object" || arms === null || Array.isArray(arms)) return { data, mapForm: false };
  let namedEntry: string | undefined;
  const list = Object.entries(arms).map(([name, fields]) => {
    if (fields === null || fields === undefined) return { name };
    if (typeof fields === "object" && !Array.isArray(fields) && "name" in fields) namedEntry ??= name;
    return typeof fields === "object" && !Array.isArray(fields) ? { ...fields, name } : fields;
  });
  return {
    data: { ...data, arms: list },
    mapForm: true,
    ...(namedEntry !== undefined ? { namedEntry } : {}),
  };
}
