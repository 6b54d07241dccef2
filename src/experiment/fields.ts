/**
 * The run fields an arm sets (and `base` sets for every arm): each one what a flag of `acilab run` or
 * `acilab cua` takes, checked by the same parser that flag uses, so a file that validates runs.
 */
import { z } from "zod";
import { parseScreen, parseScreenshotHistory, parseTier } from "../cua/index.js";
import { parseHistorySpec } from "../history/index.js";
import { checkPolicySpec } from "../policies/index.js";
import { parseAllowRule } from "../sandbox/index.js";
import { ACTION_FORMATS, TOOLSETS } from "../tools/index.js";

export type TaskKind = "coding" | "tools" | "cua";

/** A string checked by a parser that throws a sentence saying what is wrong; the sentence is the issue. */
function parsed(check: (value: string) => void) {
  return z.string().superRefine((value, ctx) => {
    try {
      check(value);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
    }
  });
}

function oneOf<const T extends readonly [string, ...string[]]>(what: string, values: T) {
  return z.enum(values, {
    error: (issue) =>
      typeof issue.input === "string"
        ? `no ${what} "${issue.input}" — use ${values.join(", ")}`
        : `must be one of ${values.join(", ")}`,
  });
}

const COUNT = "must be a whole number ≥ 1";
const count = () => z.number({ error: COUNT }).int(COUNT).min(1, COUNT);
const POSITIVE = "must be a number > 0";
const positive = () => z.number({ error: POSITIVE }).positive(POSITIVE);

const toolSet = z.string({ error: "must be a tool set's name" }).superRefine((name, ctx) => {
  if (!(name in TOOLSETS))
    ctx.addIssue({
      code: "custom",
      message: `no tool set "${name}" — the tool sets are ${Object.keys(TOOLSETS).join(", ")} ("acilab tasks list --toolsets")`,
    });
});

/** The fields, each with its schema; `.strict()` objects built from this refuse any other name. */
export const RUN_FIELDS = {
  policy: parsed(checkPolicySpec),
  tools: toolSet,
  history: parsed((v) => parseHistorySpec(v)),
  action_format: oneOf("action format", ACTION_FORMATS),
  sandbox: oneOf("sandbox backend", ["auto", "bwrap", "process", "runsc"]),
  rules: oneOf("grading rule set", ["hardened", "swebench"]),
  max_steps: count(),
  budget_usd: positive(),
  timeout_s: positive(),
  allow_net: z.array(
    parsed((v) => parseAllowRule(v)),
    { error: "must be a list of HOST[:PORT] rules" },
  ),
  observe: oneOf("observation kind", ["screenshot", "a11y", "som", "dom"]),
  resolution: parsed((v) => parseScreen(v)).transform((v) => {
    const { width, height } = parseScreen(v);
    return `${width}x${height}`; // one spelling, so "1400X800" and "1400x800" hash alike
  }),
  tier: parsed((v) => parseTier(v)),
  screenshot_history: parsed((v) => parseScreenshotHistory(v)),
  memory: oneOf("memory setting", ["on", "off"]),
  plan: oneOf("plan tool setting", ["on", "off"]),
  repo_map: oneOf("repo map setting", ["off", "tool", "prefix"]),
} as const;

export type RunFieldName = keyof typeof RUN_FIELDS;
export type RunFields = { [K in RunFieldName]?: z.output<(typeof RUN_FIELDS)[K]> | undefined };
export const RUN_FIELD_NAMES = Object.keys(RUN_FIELDS) as RunFieldName[];

/**
 * Which kinds of task read each field (src/run's codingRun, toolsRun, cuaRun options). A field no
 * task of the experiment reads is an error: two arms differing only in it would run the same attempts
 * under two names, and the statistics would compare an arm with itself.
 */
export const FIELD_KINDS: Readonly<Record<RunFieldName, readonly TaskKind[]>> = {
  policy: ["coding", "tools", "cua"],
  max_steps: ["coding", "tools", "cua"],
  budget_usd: ["coding", "tools", "cua"],
  timeout_s: ["coding", "tools", "cua"],
  tools: ["coding"],
  rules: ["coding"],
  history: ["coding", "tools"],
  action_format: ["coding", "tools"],
  sandbox: ["coding", "tools"],
  allow_net: ["coding", "tools"],
  observe: ["cua"],
  resolution: ["cua"],
  tier: ["cua"],
  screenshot_history: ["cua"],
  memory: ["coding"],
  plan: ["coding"],
  repo_map: ["coding"],
};

export const KIND_NAMES: Readonly<Record<TaskKind, string>> = {
  coding: "coding",
  tools: "tool-use",
  cua: "computer-use",
};

/** An arm's fields as one object, every field optional, nothing else allowed: what a worker checks. */
export const RUN_FIELDS_SCHEMA = z.object(RUN_FIELDS).partial().strict();
