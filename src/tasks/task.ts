import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const TaskJson = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lower-case letters, digits, '.', '_' or '-'"),
  title: z.string(),
  language: z.enum(["python", "typescript", "javascript"]),
  test_command: z.array(z.string()).min(1),
  log_parser: z.enum(["pytest", "node-tap"]),
  FAIL_TO_PASS: z.array(z.string()).min(1),
  PASS_TO_PASS: z.array(z.string()),
  difficulty: z.string().optional(),
});

/** A repository task: fix an issue in a git repository, graded by hidden tests. */
export interface Task {
  kind: "repository";
  id: string;
  title: string;
  language: "python" | "typescript" | "javascript";
  /** The task folder. */
  dir: string;
  /** The problem statement the agent sees. */
  issue: string;
  /** The repository at the buggy base state (visible tests included). */
  repoDir: string;
  /** Files copied over the repository after the agent stops; never shown to the agent. */
  hiddenDir: string;
  goldPatch: string;
  /** argv with placeholders such as {tsx} already resolved. */
  testCommand: string[];
  logParser: "pytest" | "node-tap";
  failToPass: string[];
  passToPass: string[];
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
export function taskEnvironment(task: Pick<Task, "language">): Record<string, string> {
  return task.language === "typescript" ? { ACILAB_TSX: tsxLoaderPath() } : {};
}

function substitute(arg: string, values: Record<string, string>): string {
  let out = arg;
  for (const [key, value] of Object.entries(values)) out = out.replaceAll(key, value);
  return out;
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
  const parsed = TaskJson.safeParse(raw);
  if (!parsed.success) throw new Error(`${file} is not a valid task:\n${z.prettifyError(parsed.error)}`);
  const t = parsed.data;
  for (const part of ["issue.md", "repo", "gold.patch"]) {
    if (!existsSync(join(dir, part)))
      throw new Error(
        `task "${t.id}" at ${dir} is missing ${part}; every task needs issue.md, repo/ and gold.patch`,
      );
  }
  const values = placeholders();
  return {
    kind: "repository",
    id: t.id,
    title: t.title,
    language: t.language,
    dir,
    issue: readFileSync(join(dir, "issue.md"), "utf8"),
    repoDir: join(dir, "repo"),
    hiddenDir: join(dir, "hidden"),
    goldPatch: readFileSync(join(dir, "gold.patch"), "utf8"),
    testCommand: t.test_command.map((a) => substitute(a, values)),
    logParser: t.log_parser,
    failToPass: t.FAIL_TO_PASS,
    passToPass: t.PASS_TO_PASS,
  };
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
  const specific = join(task.dir, `script.${toolset}.json`);
  if (existsSync(specific)) return specific;
  const generic = join(task.dir, "script.json");
  if (existsSync(generic)) return generic;
  throw new Error(`task "${task.id}" has no reference script (script.json); use another --policy`);
}
