import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describeCuaTask, describeTaskFile, listCuaTasks, loadTaskFolder } from "../cua/index.js";
import { type Validation, validateInstance } from "../eval/index.js";
import type { Instance } from "../swebench/index.js";
import { loadInstances } from "../swebench/index.js";
import { listTaskIds, loadTask, packageRoot, type Task, taskInstance } from "../tasks/index.js";
import { TOOLSETS } from "../tools/index.js";
import { git } from "../workspace/index.js";
import { numberOption, sandboxOption, UsageError } from "./args.js";
import { table } from "./format.js";
import { parseOptions } from "./options.js";
import {
  TASKS_EXPORT_HELP,
  TASKS_EXPORT_OPTIONS,
  TASKS_HELP,
  TASKS_LIST_HELP,
  TASKS_LIST_OPTIONS,
  TASKS_VALIDATE_HELP,
  TASKS_VALIDATE_OPTIONS,
} from "./tasks-options.js";

type Out = (line: string) => void;

/** `acilab tasks list|export|validate` (mirror and synth are in tasks-build.ts). */
export async function tasksCommand(argv: string[], out: Out): Promise<number> {
  const sub = argv[0];
  if (sub === "export") return exportCommand(argv.slice(1), out);
  if (sub === "validate") return validateCommand(argv.slice(1), out);
  if (sub === "miniwob") return (await import("./tasks-miniwob.js")).tasksMiniwobCommand(argv.slice(1), out);
  // Bare "tasks" shares list's parser, so `tasks --json list` still lists; errors name what was typed.
  const { values, positionals } = parseOptions(
    sub === "list" ? "tasks list" : "tasks",
    argv,
    TASKS_LIST_OPTIONS,
  );
  if (values.help || positionals[0] !== "list") {
    if (!values.help && positionals[0] !== undefined)
      throw new UsageError(`unknown subcommand "${positionals[0]}"`, "tasks");
    out(positionals[0] === "list" ? TASKS_LIST_HELP : TASKS_HELP);
    return 0;
  }
  if (values.toolsets) {
    const sets = Object.values(TOOLSETS);
    if (values.json)
      out(
        JSON.stringify(
          sets.map((s) => ({ name: s.name, description: s.description, tools: s.tools.map((t) => t.name) })),
          null,
          2,
        ),
      );
    else
      out(
        table([
          ["tool set", "tools", "what it tests"],
          ...sets.map((s) => [s.name, s.tools.map((t) => t.name).join(","), s.description]),
        ]),
      );
    return 0;
  }
  // One broken task folder must not hide the others: list what loads, then say what did not.
  const tasks: Task[] = [];
  const broken: string[] = [];
  for (const id of listTaskIds()) {
    try {
      tasks.push(loadTask(id));
    } catch (err) {
      broken.push((err as Error).message);
    }
  }
  // Computer-use tasks (kind "cua") come from src/cua/tasks after the coding ones, then the task files.
  const cua = listCuaTasks();
  const files = loadTaskFolder(values["cua-dir"] ?? join(packageRoot(), "tasks", "cua"));
  broken.push(...files.problems.map((p) => p.message));
  for (const b of broken) process.stderr.write(`acilab: skipped a task: ${b}\n`);
  if (values.json)
    out(
      JSON.stringify(
        [...tasks.map(describeTask), ...cua.map(describeCuaTask), ...files.tasks.map(describeTaskFile)],
        null,
        2,
      ),
    );
  else
    out(
      table([
        ["id", "library", "language", "kind of bug", "title"],
        ...tasks.map((t) => [
          t.impossible ? `${t.id} (impossible)` : t.id,
          t.source.kind === "library" ? t.source.library.name : "-",
          t.language,
          t.bugKind ?? "-",
          t.title,
        ]),
        ...cua.map((t) => [t.id, "-", "cua (browser)", "-", t.title]),
        ...files.tasks.map((t) => [t.id, "-", "cua (task file)", "-", describeTaskFile(t).title]),
      ]),
    );
  return broken.length === 0 ? 0 : 1;
}

function describeTask(t: Task) {
  return {
    id: t.id,
    kind: "coding" as const,
    title: t.title,
    language: t.language,
    library: t.source.kind === "library" ? t.source.library.name : null,
    difficulty: t.difficulty ?? null,
    bug_kind: t.bugKind ?? null,
    impossible: t.impossible,
    FAIL_TO_PASS: t.failToPass,
    PASS_TO_PASS: t.passToPass,
    dir: t.dir,
  };
}

/**
 * The built-in suite as SWE-bench instances (JSONL) that `acilab grade` reads anywhere: each
 * library's repository is written next to the file as a git bundle, and `repo_path` points there.
 */
async function exportCommand(argv: string[], out: Out): Promise<number> {
  const { values } = parseOptions("tasks export", argv, TASKS_EXPORT_OPTIONS);
  if (values.help) {
    out(TASKS_EXPORT_HELP);
    return 0;
  }
  if (values.suite !== "builtin")
    throw new UsageError(`unknown suite "${values.suite}"; the one suite is "builtin"`, "tasks export");
  if (!values.out)
    throw new UsageError("tasks export needs --out FILE (the instances .jsonl to write)", "tasks export");
  const file = resolve(values.out);
  const reposDir = join(dirname(file), "repos");
  mkdirSync(reposDir, { recursive: true });
  const lines: string[] = [];
  const bundles = new Map<string, string>();
  for (const id of listTaskIds()) {
    const instance = await taskInstance(loadTask(id));
    const name = instance.repo.split("/").at(-1) ?? id;
    let bundle = bundles.get(instance.repo_path);
    if (!bundle) {
      bundle = join(reposDir, `${name}.bundle`);
      await git(instance.repo_path, ["bundle", "create", "-q", bundle, "--all"]);
      bundles.set(instance.repo_path, bundle);
    }
    lines.push(JSON.stringify({ ...instance, repo_path: relative(dirname(file), bundle) }));
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
  out(`wrote ${lines.length} instances to ${file} and ${bundles.size} repositories to ${reposDir}/`);
  out(`grade them: acilab grade --instances ${values.out} --predictions gold --run-id check`);
  return 0;
}

/** `tasks validate FILE|ID…`: gold resolves, the untouched base does not, two runs agree. */
async function validateCommand(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parseOptions("tasks validate", argv, TASKS_VALIDATE_OPTIONS);
  if (values.help) {
    out(TASKS_VALIDATE_HELP);
    return 0;
  }
  const runs = numberOption(values.runs, "runs", "tasks validate");
  const targets = positionals.length > 0 ? positionals : listTaskIds();
  const instances: Instance[] = [];
  for (const target of targets) {
    if (/\.jsonl?$/.test(target) && existsSync(target)) instances.push(...loadInstances(target));
    else instances.push(await taskInstance(loadTask(target)));
  }
  const results: Validation[] = [];
  for (const instance of instances) {
    const v = await validateInstance(instance, {
      runs,
      backend: sandboxOption(values.sandbox, "tasks validate"),
    });
    results.push(v);
    out(
      `${v.ok ? "ok     " : v.flaky ? "flaky  " : "INVALID"} ${instance.instance_id}${instance.impossible ? " (impossible)" : ""}`,
    );
    for (const p of v.problems) out(`        ${p}`);
  }
  const bad = results.filter((r) => !r.ok);
  out("");
  out(
    `${results.length - bad.length}/${results.length} valid${bad.length > 0 ? ` — fix or drop: ${bad.map((b) => b.instance_id).join(", ")}` : ""}`,
  );
  return bad.length === 0 ? 0 : 1;
}
