import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { LOG_PARSERS, type LogParserName } from "../parsers/index.js";
import type { Instance } from "../swebench/index.js";
import { type Library, lastPatchNumber, loadLibrary } from "./library.js";
import { loadInstanceRows } from "./published.js";
import { reposDir } from "./repo-store.js";

const Common = {
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lower-case letters, digits, '.', '_' or '-'"),
  title: z.string(),
  FAIL_TO_PASS: z.array(z.string()).min(1),
  PASS_TO_PASS: z.array(z.string()),
  difficulty: z.string().optional(),
  bug_kind: z.string().optional(),
  created_at: z.string().optional(),
  impossible: z.boolean().optional(),
  log_parser: z
    .string()
    .refine((n) => n in LOG_PARSERS, {
      message: `unknown log parser; use one of ${Object.keys(LOG_PARSERS).join(", ")}`,
    })
    .optional(),
  test_command: z.array(z.string()).min(1).optional(),
};
/** A task over a built-in library: the history up to `base` is the repository, test.patch the hidden tests. */
const LibraryTaskJson = z.object({
  ...Common,
  library: z.string(),
  base: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
});
/** A self-contained task folder: repo/ is the repository, hidden/ the files laid over it to grade. */
const FolderTaskJson = z.object({
  ...Common,
  language: z.enum(["python", "typescript", "javascript"]),
  test_command: z.array(z.string()).min(1),
  log_parser: Common.log_parser.unwrap(),
});

/** Where a task's repository comes from. */
export type TaskSource =
  | { kind: "library"; library: Library /** Patch number the base commit was made from. */; base: string }
  | {
      kind: "folder" /** The repository at the base state. */;
      repoDir: string /** Laid over it to grade. */;
      hiddenDir: string;
    }
  /** A SWE-bench instance (an instances file `tasks mirror` or `tasks export` wrote): graded as it says. */
  | { kind: "instance"; instance: Instance; file: string };

/** A repository task: fix an issue in a git repository, graded by hidden tests. */
export interface Task {
  kind: "coding";
  id: string;
  title: string;
  language: Instance["language"];
  /** The task folder; for an instance, `FILE#ID` (it has no folder, and so no reference scripts). */
  dir: string;
  source: TaskSource;
  /** The problem statement the agent sees. */
  issue: string;
  goldPatch: string;
  /** argv with placeholders such as {tsx} already resolved. */
  testCommand: string[];
  /** The same with its placeholders, as exported instances carry it (host paths differ). */
  testCommandTemplate: string[];
  logParser: LogParserName;
  failToPass: string[];
  passToPass: string[];
  /** The hidden tests contradict the issue: a "resolved" here is cheating by construction. */
  impossible: boolean;
  difficulty: string | undefined;
  bugKind: string | undefined;
  createdAt: string | undefined;
  /** Shell lines run in every sandbox of the task before anything else (an instance's setup_commands). */
  setupCommands?: readonly string[];
}

/** The checkout's root: the nearest folder above this module whose package.json is acilab's. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "acilab")
      return dir;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("cannot find acilab's package.json above the installed code; reinstall acilab");
    dir = parent;
  }
}

export function builtinTasksDir(): string {
  return join(packageRoot(), "tasks", "builtin");
}

/** tsx's loader lets node 20 run TypeScript without a build step (`node --import <loader> file.ts`). */
export function tsxLoaderPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("tsx/package.json")), "dist", "loader.mjs");
}

/** Values the harness substitutes into a task's test command. */
function placeholders(): Record<string, string> {
  return { "{tsx}": tsxLoaderPath() };
}

/** Variables every sandbox of a task gets (never secrets): how to run TypeScript. */
export function taskEnvironment(task: { language: string }): Record<string, string> {
  return task.language === "typescript" ? { ACILAB_TSX: tsxLoaderPath() } : {};
}

/** Replace `{tsx}` and the like in a test command with this machine's paths. */
export function resolvePlaceholders(argv: readonly string[]): string[] {
  const values = placeholders();
  return argv.map((arg) => {
    let out = arg;
    for (const [key, value] of Object.entries(values)) out = out.replaceAll(key, value);
    return out;
  });
}

/** Load a task by built-in id or by the path of a task folder. */
export function loadTask(idOrPath: string): Task {
  const candidates = [resolve(idOrPath), join(builtinTasksDir(), idOrPath)];
  const dir = candidates.find((c) => existsSync(join(c, "task.json")));
  if (!dir) {
    const known = listTaskIds();
    throw new Error(
      `task "${idOrPath}" not found: no task.json at ${candidates.join(" or ")}. Built-in tasks: ${known.join(", ")} (run "acilab tasks list").`,
    );
  }
  const file = join(dir, "task.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(
      `${file} is not valid JSON (${err instanceof Error ? err.message : String(err)}); fix the file`,
    );
  }
  const obj = raw as { library?: unknown };
  const schema =
    obj !== null && typeof obj === "object" && "library" in obj ? LibraryTaskJson : FolderTaskJson;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file} is not a valid task:\n${z.prettifyError(parsed.error)}`);
  const t = parsed.data;
  const need = "library" in t ? ["issue.md", "gold.patch", "test.patch"] : ["issue.md", "repo", "gold.patch"];
  for (const part of need) {
    if (!existsSync(join(dir, part)))
      throw new Error(
        `task "${t.id}" at ${dir} is missing ${part}; a ${"library" in t ? "library" : "folder"} task needs ${need.join(", ")}`,
      );
  }
  let source: TaskSource;
  let language: Task["language"];
  let testCommand: string[];
  let logParser: LogParserName;
  if ("library" in t) {
    const library = loadLibrary(libsDir(dir), t.library);
    source = { kind: "library", library, base: t.base ?? lastPatchNumber(library) };
    language = library.language;
    testCommand = t.test_command ?? library.testCommand;
    logParser = (t.log_parser ?? library.logParser) as LogParserName;
  } else {
    source = { kind: "folder", repoDir: join(dir, "repo"), hiddenDir: join(dir, "hidden") };
    language = t.language;
    testCommand = t.test_command;
    logParser = t.log_parser as LogParserName;
  }
  return {
    kind: "coding",
    id: t.id,
    title: t.title,
    language,
    dir,
    source,
    issue: readFileSync(join(dir, "issue.md"), "utf8"),
    goldPatch: readFileSync(join(dir, "gold.patch"), "utf8"),
    testCommand: resolvePlaceholders(testCommand),
    testCommandTemplate: testCommand,
    logParser,
    failToPass: t.FAIL_TO_PASS,
    passToPass: t.PASS_TO_PASS,
    impossible: t.impossible === true,
    difficulty: t.difficulty,
    bugKind: t.bug_kind,
    createdAt: t.created_at,
  };
}

/** Libraries live in tasks/libs/, beside the tasks/builtin/ (or any task folder's parent's parent). */
function libsDir(taskDir: string): string {
  const beside = join(dirname(dirname(taskDir)), "libs");
  return existsSync(beside) ? beside : join(packageRoot(), "tasks", "libs");
}

export function listTaskIds(): string[] {
  const root = builtinTasksDir();
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => statSync(join(root, name)).isDirectory() && existsSync(join(root, name, "task.json")))
    .sort();
}

/** The task's reference script for a tool set: `script.<toolset>.json`, else `script.json`. */
export function referenceScript(task: Task, toolset: string): string {
  if (task.source.kind === "instance")
    throw new Error(
      `task "${task.id}" comes from the instances file ${task.source.file} and has no reference script; use a model or a scripted:FILE policy`,
    );
  const specific = join(task.dir, `script.${toolset}.json`);
  if (existsSync(specific)) return specific;
  const generic = join(task.dir, "script.json");
  if (existsSync(generic)) return generic;
  throw new Error(`task "${task.id}" has no reference script (script.json); use another --policy`);
}

/** How an instance becomes a task: SWE-bench's hints join the problem statement only when asked. */
export interface InstanceTaskOptions {
  /** Append the row's hints_text to the prompt (SWE-bench's "with hints" setting). */
  hints?: boolean;
  /** The repository store for published rows (default $ACILAB_REPOS). */
  repos?: string | undefined;
}

/** The prompt: the problem statement, and the hints after it when asked for and present. */
export function instancePrompt(instance: Instance, hints = false): string {
  const hint = instance.hints_text.trim();
  return hints && hint !== ""
    ? `${instance.problem_statement.trimEnd()}\n\n## Hints\n\n${hint}\n`
    : instance.problem_statement;
}

/** An instance from an instances file as a coding task: its repository, tests and setup as it says. */
export function taskFromInstance(instance: Instance, file: string, options: InstanceTaskOptions = {}): Task {
  const firstLine = instance.problem_statement.trim().split("\n")[0] ?? instance.instance_id;
  return {
    kind: "coding",
    id: instance.instance_id,
    title: firstLine.replace(/^#+\s*/, "").slice(0, 120),
    language: instance.language,
    dir: `${file}#${instance.instance_id}`,
    source: { kind: "instance", instance, file },
    issue: instancePrompt(instance, options.hints),
    goldPatch: instance.patch,
    testCommand: resolvePlaceholders(instance.test_command),
    testCommandTemplate: [...instance.test_command],
    logParser: instance.log_parser,
    failToPass: [...instance.FAIL_TO_PASS],
    passToPass: [...instance.PASS_TO_PASS],
    impossible: instance.impossible === true,
    difficulty: undefined,
    bugKind: undefined,
    createdAt: instance.created_at || undefined,
    setupCommands: instance.setup_commands ?? [],
  };
}

const instancesByFile = new Map<string, Map<string, Instance | { unavailable: string }>>();

/**
 * Instance `id` of the instances file `file` as a coding task (each file read once per process) — a
 * published SWE-bench row too, completed from its recipe and the repository store; a wrong id names
 * the ones the file has, a row that cannot run here says why. An unreadable file throws the
 * loader's own error.
 */
export function instanceTask(file: string, id: string, options: InstanceTaskOptions = {}): Task {
  const path = resolve(file);
  const key = `${path}\0${reposDir(options.repos) ?? ""}`;
  let byId = instancesByFile.get(key);
  if (!byId) {
    const loaded = loadInstanceRows(path, { repos: reposDir(options.repos) });
    byId = new Map<string, Instance | { unavailable: string }>(
      loaded.instances.map((i) => [i.instance_id, i]),
    );
    for (const u of loaded.unavailable) byId.set(u.instance_id, { unavailable: u.reason });
    instancesByFile.set(key, byId);
  }
  const instance = byId.get(id);
  if (!instance) {
    const ids = [...byId.keys()];
    const shown = ids.slice(0, 5).join(", ") + (ids.length > 5 ? ` and ${ids.length - 5} more` : "");
    throw new Error(`no instance "${id}" in ${file} — it has ${shown}`);
  }
  if ("unavailable" in instance) throw new Error(`instance "${id}" cannot run here: ${instance.unavailable}`);
  return taskFromInstance(instance, path, options);
}
