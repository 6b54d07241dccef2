import { dirname, isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { LOG_PARSERS, type LogParserName } from "../parsers/index.js";
import { describeIssues, InputFileError, idOf, readRows } from "./rows.js";
import type { EnvironmentSpec, Instance } from "./types.js";

const LOG_PARSER_NAMES = Object.keys(LOG_PARSERS) as [LogParserName, ...LogParserName[]];
const LANGUAGES = ["python", "typescript", "javascript", "go", "rust"] as const;
/** A row without `language` gets the one its log parser implies; a parser not listed needs the field. */
const LANGUAGE_OF_PARSER: Partial<Record<LogParserName, Instance["language"]>> = {
  pytest: "python",
  "node-tap": "javascript",
  "node-spec": "javascript",
  "jest-json": "javascript",
  "mocha-json": "javascript",
  "go-test-json": "go",
  "cargo-test": "rust",
  sympy: "python",
  django: "python",
  "pytest-options": "python",
  "pytest-v2": "python",
  matplotlib: "python",
  seaborn: "python",
};

/** SWE-bench's Hugging Face export stores the two test lists as JSON-encoded strings; accept both. */
const testList = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v; // the array schema then reports "expected array, received string"
  }
}, z.array(z.string()));

const PythonEnvironmentRow = z
  .object({
    python: z.string().min(1, "must name an interpreter (a path, or a name on PATH such as python3)"),
    install: z.array(z.string()),
    system_site_packages: z.boolean().optional(),
    packages: z.array(z.array(z.string().min(1))).optional(),
    optional: z.array(z.string()).optional(),
    recipe: z.string().optional(),
    indexes: z
      .union([
        z.literal("machine"),
        z.literal("none"),
        z
          .object({
            index_url: z.string().optional(),
            extra_index_urls: z.array(z.string()).optional(),
            find_links: z.array(z.string()).optional(),
          })
          .strict(),
      ])
      .optional(),
  })
  .strict();

const NodeEnvironmentRow = z
  .object({
    node: z.string().min(1, "must name a node binary (a path, or a name on PATH such as node)"),
    install: z.array(z.string()),
    indexes: z
      .union([
        z.literal("machine"),
        z.literal("none"),
        z
          .object({ registry: z.string().min(1), scopes: z.record(z.string(), z.string()).optional() })
          .strict(),
      ])
      .optional(),
  })
  .strict();

/** The runtime is named by its key: `node` for a node_modules, else `python` for a venv. */
function environmentRow(value: unknown) {
  return value !== null && typeof value === "object" && "node" in value
    ? NodeEnvironmentRow
    : PythonEnvironmentRow;
}

const InstanceRow = z.object({
  instance_id: z.string().min(1),
  repo: z.string(),
  base_commit: z.string().min(1),
  patch: z.string().default(""),
  test_patch: z.string(),
  problem_statement: z.string().default(""),
  hints_text: z.string().default(""),
  created_at: z.string().default(""),
  // Some exports turn "3.0" into a number; the version is a label, so keep it as text.
  version: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .default(""),
  environment_setup_commit: z.string().optional(),
  FAIL_TO_PASS: testList,
  PASS_TO_PASS: testList,
  test_command: z.array(z.string()).min(1, "must name a program: a non-empty argv list"),
  log_parser: z.enum(LOG_PARSER_NAMES),
  language: z.enum(LANGUAGES).optional(),
  setup_commands: z.array(z.string()).optional(),
  acilab_env: z.unknown().optional(),
  repo_path: z.string().min(1),
  impossible: z.boolean().optional(),
});

/**
 * acilab runs tests without SWE-bench's per-repository Docker images, so three fields have no
 * default: a plain SWE-bench row lacks them and must be extended. Each hint says what to add.
 */
const ACILAB_FIELDS: Record<string, string> = {
  test_command: `add "test_command": the argv run from the repository root, e.g. ["python", "-m", "pytest", "-rA", "--tb=no", "-p", "no:cacheprovider", "tests/test_x.py"] (SWE-bench keeps it per repo/version in harness/constants; a shell line needs ["bash", "-c", "…"])`,
  log_parser: `add "log_parser": one of ${LOG_PARSER_NAMES.map((n) => `"${n}"`).join(", ")} (pytest for SWE-bench's Python repositories)`,
  repo_path: `add "repo_path": a git repository folder or .bundle file that holds base_commit, relative to the instances file's folder`,
};

/** zod keeps absent optional keys as `undefined`; the spec's hash must not see them. */
function withoutUndefined(value: unknown): EnvironmentSpec {
  return JSON.parse(JSON.stringify(value)) as EnvironmentSpec;
}

/** An environment spec (an instance's `acilab_env`, or a spec file), checked field by field. */
export function parseEnvironmentSpec(value: unknown): { spec: EnvironmentSpec } | { problem: string } {
  const parsed = environmentRow(value).safeParse(value);
  return parsed.success ? { spec: withoutUndefined(parsed.data) } : { problem: describeIssues(parsed.error) };
}

/**
 * One row of an instances file as an Instance, or a sentence saying what is wrong with it (naming the
 * field and what to write). `label` is where the row is ("line 3 (id)"); relative `repo_path`s are
 * resolved against the file's folder.
 */
export function parseInstanceRow(
  value: unknown,
  file: string,
  label: string,
): { instance: Instance } | { problem: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { problem: `${label}: expected an object with SWE-bench's instance fields` };
  const record = value as Record<string, unknown>;
  const missing = Object.keys(ACILAB_FIELDS).filter((f) => record[f] === undefined);
  if (missing.length > 0)
    return {
      problem: `${label}: ${missing.map((f) => `"${f}" is missing — ${ACILAB_FIELDS[f]}`).join("; ")}`,
    };
  const parsed = InstanceRow.safeParse(record);
  const env =
    record.acilab_env === undefined
      ? undefined
      : environmentRow(record.acilab_env).safeParse(record.acilab_env);
  if (!parsed.success || env?.success === false) {
    const issues = [
      ...(parsed.success ? [] : parsed.error.issues),
      ...(env?.success === false
        ? env.error.issues.map((i) => ({ ...i, path: ["acilab_env", ...i.path] }))
        : []),
    ];
    return { problem: `${label}: ${describeIssues(new z.ZodError(issues))}` };
  }
  const data = parsed.data;
  if (/[/\\\0]/.test(data.instance_id) || data.instance_id === "." || data.instance_id === "..")
    return {
      problem: `${label}: "instance_id" is used as a folder name, so it cannot contain "/" or be "." or ".."`,
    };
  const language = parsed.data.language ?? LANGUAGE_OF_PARSER[parsed.data.log_parser];
  if (language === undefined)
    return {
      problem: `${label}: "language" is missing — add one of ${LANGUAGES.map((l) => `"${l}"`).join(", ")}`,
    };
  const { environment_setup_commit, language: _, setup_commands, impossible, acilab_env, ...rest } = data;
  return {
    instance: {
      ...rest,
      environment_setup_commit: environment_setup_commit ?? data.base_commit,
      language,
      repo_path: isAbsolute(data.repo_path) ? data.repo_path : resolve(dirname(file), data.repo_path),
      ...(setup_commands !== undefined ? { setup_commands } : {}),
      ...(impossible !== undefined ? { impossible } : {}),
      ...(acilab_env !== undefined && env?.success ? { acilab_env: withoutUndefined(env.data) } : {}),
    },
  };
}

/**
 * Load instances from `.jsonl` or `.json` (a list). Every problem in the file is reported at once,
 * each naming the line (or index), the instance id and the field; duplicate ids name both lines.
 * Relative `repo_path`s are resolved against the instances file's folder.
 */
export function loadInstances(file: string): Instance[] {
  const { rows, problems } = readRows(file, { dict: false });
  const instances: Instance[] = [];
  const seen = new Map<string, string>();
  for (const row of rows) {
    const id = idOf(row.value);
    const parsed = parseInstanceRow(row.value, file, `${row.where}${id ? ` (${id})` : ""}`);
    if ("problem" in parsed) {
      problems.push(parsed.problem);
      continue;
    }
    const first = seen.get(parsed.instance.instance_id);
    if (first !== undefined) {
      problems.push(
        `${row.where}: instance "${parsed.instance.instance_id}" is a duplicate of ${first}; keep one of them`,
      );
      continue;
    }
    seen.set(parsed.instance.instance_id, row.where);
    instances.push(parsed.instance);
  }
  if (problems.length > 0) throw new InputFileError(file, problems);
  if (instances.length === 0) throw new InputFileError(file, ["no instances in the file"]);
  return instances;
}
