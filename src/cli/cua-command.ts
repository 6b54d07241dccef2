import { join } from "node:path";
import { type CuaTask, SharedBrowser, type TaskFile, TaskFileError } from "../cua/index.js";
import { type CuaRunResult, observeFor, type RunSpec, resolveRunSpec, runAnyTask } from "../run/index.js";
import { UsageError } from "./args.js";
import { imageSizeCommand } from "./cua-image-size.js";
import { CUA_HELP, CUA_OPTIONS, CUA_SETTING_NAMES, observeOption, taskOption } from "./cua-options.js";
import {
  type CuaRow,
  FAILED_STOPS,
  rowOfBrokenFile,
  rowOfFailure,
  rowOfResult,
  summaryTable,
} from "./cua-summary.js";
import { formatCost, formatTokens } from "./format.js";
import { parseOptions } from "./options.js";
import { settingsFromFlags } from "./run-settings.js";

type Out = (line: string) => void;

export interface CuaCommandDeps {
  interruptSignal: () => { signal: AbortSignal; dispose: () => void };
}

/** What `acilab cua` was asked to run, checked: every task × spec (one per `--observe` kind), one episode each. */
export interface CuaRequest {
  tasks: Array<CuaTask | TaskFile>;
  /** A folder's task files that did not load: a task_error row each, after the others have run. */
  broken: TaskFileError[];
  specs: RunSpec[];
  /** The output folder: the run's own when there is one run, else <root>/<task>/<observe>/. */
  root: string;
  json: boolean;
}

/**
 * `acilab cua --task <id|all> --policy <spec> --observe <kinds> --resolution WxH --out DIR`: run
 * built-in computer-use tasks in a fresh browser each, grade each on the app's final state.
 */
export async function cuaCommand(argv: string[], out: Out, deps: CuaCommandDeps): Promise<number> {
  // The subcommand for the loop's scaling (cua-image-size.ts): model image size, tokens, click mapping.
  if (argv[0] === "image-size") return imageSizeCommand(argv.slice(1), out);
  const { values, positionals } = parseOptions("cua", argv, CUA_OPTIONS);
  if (values.help || (!values.task && positionals.length === 0)) {
    out(CUA_HELP);
    return values.help ? 0 : 2;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, "cua");
  const { tasks, broken } = taskOption(values.task ?? "");
  const settings = settingsFromFlags(
    values,
    CUA_SETTING_NAMES.filter((n) => n !== "observe"),
    "cua",
  );
  const { spec, auto } = resolveRunSpec(settings, { defaultPolicy: "scripted" });
  if (auto) out(`policy: ${auto.spec} (${auto.why})`);
  // One spec per `--observe` kind; the rest is the same for every episode.
  const specs = observeOption(values.observe).map(
    (observe): RunSpec => ({ ...spec, cua: { ...spec.cua, observe: observe ?? null } }),
  );
  const request: CuaRequest = {
    tasks,
    broken,
    specs,
    root:
      values.out ??
      join("runs", `cua-${folderName(values.task ?? "")}-${new Date().toISOString().replace(/[:.]/g, "-")}`),
    json: values.json === true,
  };
  return runCuaRequest(request, out, deps.interruptSignal);
}

/** `--task` as one folder name: a path's separators would nest the default out folder. */
function folderName(task: string): string {
  return (
    task
      .replace(/\.ya?ml$/, "")
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^[._]+/, "") || "task"
  );
}

/**
 * Runs every task × observation in turn, printing each result, then the table. One browser is kept
 * for the whole run, each episode in a fresh context of it (src/cua/env/browser-host.ts). A task that
 * cannot start is its row (task_error, env_error) and the run goes on; the exit code is 1 when any
 * row is one, 130 when interrupted, else 0 whatever the resolve rate.
 */
export async function runCuaRequest(
  request: CuaRequest,
  out: Out,
  interruptSignal: CuaCommandDeps["interruptSignal"],
): Promise<number> {
  const { tasks, specs, root } = request;
  const single = tasks.length === 1 && specs.length === 1 && request.broken.length === 0;
  const interrupt = interruptSignal();
  const browsers = new SharedBrowser();
  const results: CuaRunResult[] = [];
  const rows: CuaRow[] = [];
  try {
    for (const task of tasks) {
      for (const spec of specs) {
        if (interrupt.signal.aborted) break;
        const observe = observeFor(spec, task);
        if (!task.observe.includes(observe)) {
          out(`skip ${task.id} · ${observe}: the task does not apply to that observation`);
          continue;
        }
        const dir = single ? root : join(root, task.id, observe);
        try {
          const result = await runAnyTask(spec, task, { out: dir, signal: interrupt.signal, browsers });
          results.push(result);
          rows.push(rowOfResult(result));
          if (!request.json) out(describe(result, dir));
        } catch (err) {
          // What stops a task before its episode (a task file with no script to play): its row.
          const stop = err instanceof TaskFileError ? "task_error" : "env_error";
          const detail = err instanceof Error ? err.message : String(err);
          rows.push(rowOfFailure(task.id, observe, stop, detail));
          if (!request.json) out(`NOT RUN ${task.id} · ${observe}: ${stop}: ${detail}`);
        }
      }
    }
  } finally {
    interrupt.dispose();
    await browsers.close();
  }
  rows.push(...request.broken.map(rowOfBrokenFile));
  if (request.json) out(JSON.stringify(single && results[0] ? results[0] : jsonRows(results, rows), null, 2));
  else if (!single) out(`\n${summaryTable(rows)}\n\nwritten to ${root}/<task>/<observe>/`);
  if (results.some((r) => r.stop_reason === "aborted")) return 130;
  return rows.some((r) => FAILED_STOPS.has(r.stop)) ? 1 : 0;
}

/** --json with several runs: every result.json, and a short record for each task that never ran. */
function jsonRows(results: CuaRunResult[], rows: CuaRow[]): unknown[] {
  const ran = new Set(results.map((r) => `${r.task}\u0000${r.observe}`));
  return [
    ...results,
    ...rows
      .filter((r) => !ran.has(`${r.task}\u0000${r.observe}`))
      .map((r) => ({
        task: r.task,
        kind: "cua",
        observe: r.observe,
        resolved: false,
        stop_reason: r.stop,
        detail: r.detail,
      })),
  ];
}

function describe(r: CuaRunResult, dir: string): string {
  const lines = [
    `${r.resolved ? "RESOLVED" : "NOT RESOLVED"} ${r.task} · ${r.observe} · ${r.resolution} (model sees ${r.model_image}) · policy ${r.policy}`,
    `  grade: ${r.grade.detail}`,
    `  stopped: ${r.stop_reason} (${r.detail}) after ${r.steps} steps, ${r.wall_s} s · tokens in/out ${formatTokens(r)} · cost ${formatCost(r)}`,
  ];
  // The consequence gate's refusals say "request … refused" themselves; the label gate's need a name.
  for (const b of r.blocked)
    lines.push(b.startsWith("request ") ? `  ${b}` : `  confirmation gate refused: ${b}`);
  if (r.egress_refused.length > 0)
    lines.push(`  egress allowlist refused ${r.egress_refused.length} request(s)`);
  if (r.grade.reward !== undefined) lines.splice(1, 0, `  reward: ${r.grade.reward}`);
  if (r.sandbox_warning) lines.push(`  warning: ${r.sandbox_warning}`);
  lines.push(`  written to ${dir}/ (trajectory.jsonl, frames/, result.json, contact-sheet.png)`);
  return lines.join("\n");
}
