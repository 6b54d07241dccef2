import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describeCuaTask, describeTaskFile, listCuaTasks, loadTaskFolder } from "../cua/index.js";
import {
  causesInWords,
  NOOP_PATCH,
  type Readiness,
  readinessOf,
  readinessTable,
  unavailableCause,
  validateInstance,
} from "../eval/index.js";
import { forEachLimited } from "../pool/index.js";
import { RUN_DEFAULTS } from "../run/index.js";
import {
  InputFileError,
  type Instance,
  instanceDir,
  PIN_POLICIES,
  reusableReport,
  writeGradedRun,
} from "../swebench/index.js";
import {
  type LoadedInstances,
  listTaskIds,
  loadInstanceRows,
  loadTask,
  packageRoot,
  reposDir,
  type Task,
  taskInstance,
} from "../tasks/index.js";
import { TOOLSETS } from "../tools/index.js";
import { git } from "../workspace/index.js";
import { choiceOption, numberOption, sandboxOption, UsageError } from "./args.js";
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
  const command = "tasks validate";
  const runs = numberOption(values.runs, "runs", command);
  const workers = numberOption(values.workers, "workers", command);
  if (!Number.isInteger(workers) || workers < 1)
    throw new UsageError(`--workers must be a whole number ≥ 1, got "${values.workers}"`, command);
  const pins = choiceOption(values.pins ?? RUN_DEFAULTS.pins, PIN_POLICIES, "pins", command);
  const targets = positionals.length > 0 ? positionals : listTaskIds();
  const instances: Instance[] = [];
  const readiness: Readiness[] = [];
  for (const target of targets) {
    if (/\.jsonl?$/.test(target)) {
      // A file name is never a task id: a missing one is said as such, not looked up among the tasks.
      if (!existsSync(target))
        throw new UsageError(
          `${target}: no such instances file (tasks mirror and synth write one; a task is named by its id or folder)`,
          "tasks validate",
        );
      let rows: LoadedInstances;
      try {
        rows = loadInstanceRows(resolve(target), { repos: reposDir(values.repos), filter: values.filter });
      } catch (e) {
        if (!(e instanceof InputFileError)) throw e;
        out(`acilab tasks validate: ${e.message}`);
        return 1;
      }
      for (const p of rows.problems) out(`warning: ${target}: ${p}`);
      instances.push(...rows.instances);
      for (const u of rows.unavailable) {
        const repo = u.repo ?? "-";
        readiness.push({
          instance_id: u.instance_id,
          repo,
          state: "unavailable",
          cause: unavailableCause(u.reason),
          reason: u.reason,
        });
        out(`UNAVAILABLE ${u.instance_id}\n        ${u.reason}`);
      }
    } else instances.push(await taskInstance(loadTask(target)));
  }
  await forEachLimited(instances, { workers }, async (instance) => {
    // With --out, what an interrupted validation finished there is read back, not graded again.
    const keptAt = (model: string, i: number) =>
      instanceDir(
        resolve(values.out as string),
        i === 0 ? "validate" : `validate-${i + 1}`,
        model,
        instance.instance_id,
      );
    const v = await validateInstance(instance, {
      runs,
      pins,
      backend: sandboxOption(values.sandbox, "tasks validate"),
      ...(values.out
        ? { earlier: (model, i, patch) => reusableReport(keptAt(model, i), instance.instance_id, patch) }
        : {}),
    });
    if (values.out) {
      const keep = (model: string, patch: string, graded: (typeof v.runs.base)[]) => {
        for (const [i, g] of graded.entries())
          if (!("reused" in g)) writeGradedRun(keptAt(model, i), instance.instance_id, patch, g);
      };
      keep("gold", instance.patch, v.runs.gold);
      keep("base", NOOP_PATCH, [v.runs.base]);
    }
    const r = readinessOf(instance.repo, v);
    readiness.push(r);
    const label =
      r.state === "ready"
        ? "ok     "
        : r.state === "unavailable"
          ? "UNAVAILABLE"
          : r.state === "flaky"
            ? "flaky  "
            : "INVALID";
    out(`${label} ${instance.instance_id}${instance.impossible ? " (impossible)" : ""}`);
    if (r.state === "unavailable") out(`        ${r.reason}`);
    else for (const p of v.problems) out(`        ${p}`);
  });
  const bad = readiness.filter((r) => r.state !== "ready");
  out("");
  const repos = readinessTable(readiness);
  if (repos.some((t) => !t.repo.startsWith("acilab/")) || repos.length > 1)
    out(
      table([
        ["repository", "rows", "ready", "invalid", "flaky", "unavailable here (cause)"],
        ...repos.map((t) => [
          t.repo,
          String(t.rows),
          String(t.ready),
          String(t.invalid),
          String(t.flaky),
          causesInWords(t.unavailable),
        ]),
      ]),
    );
  out(
    `${readiness.length - bad.length}/${readiness.length} valid${bad.length > 0 ? ` — fix or drop: ${bad.map((b) => b.instance_id).join(", ")}` : ""}`,
  );
  return bad.length === 0 ? 0 : 1;
}
