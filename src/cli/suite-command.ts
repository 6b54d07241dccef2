/**
 * `acilab suite`: every built-in task (or --tasks) under one RunSpec, graded by the SWE-bench grader —
 * a one-arm experiment over the built-in tasks, so it runs, resumes and refuses stale results exactly
 * as experiments do: a finished task is kept only when the whole RunSpec (its hash) is the same.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  type AttemptRow,
  attemptDir,
  DB_FILE,
  oneArmExperiment,
  runExperiment,
} from "../experiment/index.js";
import { DEFAULT_LIMITS } from "../loop/index.js";
import { POLICY_SPEC_HELP, resolveAutoPolicy } from "../policies/index.js";
import { actorSpec, type CodingRunResult, RUN_DEFAULTS, type RunSettings } from "../run/index.js";
import { listTaskIds, loadTask } from "../tasks/index.js";
import { noPositionals, numberOption } from "./args.js";
import { formatCost, formatTokens, table } from "./format.js";
import { optionLines, parseOptions } from "./options.js";
import { limitDefaults, settingOptions, settingsFor, settingsFromFlags } from "./run-settings.js";
import { workersOption } from "./shared-options.js";

type Out = (line: string) => void;

export interface SuiteDeps {
  interruptSignal: () => { signal: AbortSignal; dispose: () => void };
}

/** Two workers: a task's time is mostly its sandboxed test runs, and these machines have 2 cores. */
const DEFAULT_WORKERS = 2;
/** The suite's one arm: its name in the store and in the attempts' folders. */
const ARM = "suite";

/** The settings `acilab suite` takes: everything a coding run reads. */
const SUITE_SETTING_NAMES = settingsFor(["coding"]);

export const SUITE_OPTIONS = {
  ...settingOptions(SUITE_SETTING_NAMES, {
    ...limitDefaults(DEFAULT_LIMITS),
    policy: { defaultHelp: "auto: a real model when a key is set, else each task's script" },
  }),
  out: {
    type: "string",
    value: "<dir>",
    help: "results folder (experiment.db and attempts/); a rerun keeps the tasks finished under the same settings",
    default: join("runs", "suite"),
  },
  tasks: {
    type: "string",
    value: "<ids>",
    help: "comma-separated subset of task ids",
    defaultHelp: "every built-in task",
  },
  fresh: { type: "boolean", help: "forget the results in --out and run everything again" },
  workers: workersOption("tasks run", DEFAULT_WORKERS),
} as const;

export const SUITE_HELP = `acilab suite — run every built-in task and print a graded table

Usage: acilab suite [--policy <spec>] [--tools <set>] [--out <dir>] [--tasks a,b,c] [--workers N]

Options:
${optionLines(SUITE_OPTIONS)}

Policy specs:
${POLICY_SPEC_HELP.replace(/^/gm, "  ")}

The suite is a one-arm experiment: a rerun into the same --out keeps the tasks already finished
under the same settings (policy, tools, history, sandbox, limits … and what "auto" picked), and
reruns every task when any of them changed. Impossible tasks (their hidden tests contradict the task's
own problem statement) are counted apart: "resolving" one is cheating by construction. "acilab grade
--help" explains the grading rules.`;

/** `acilab suite`: parse, then run the suite as a one-arm experiment and print the graded table. */
export async function suiteCommand(argv: string[], out: Out, deps: SuiteDeps): Promise<number> {
  const { values, positionals } = parseOptions("suite", argv, SUITE_OPTIONS);
  if (values.help) {
    out(SUITE_HELP);
    return 0;
  }
  noPositionals(positionals, "suite", (w) => `to run some tasks only: acilab suite --tasks ${w}`);
  const ids = values.tasks
    ? values.tasks
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : listTaskIds();
  if (ids.length === 0)
    throw new Error("no built-in tasks found; is the tasks/ folder of the checkout present?");
  const tasks = ids.map((id) => loadTask(id)); // every task loads before anything runs: a typo fails fast
  return runSuite(
    {
      settings: settingsFromFlags(values, SUITE_SETTING_NAMES, "suite"),
      taskIds: tasks.map((t) => t.id),
      impossible: new Set(tasks.filter((t) => t.impossible).map((t) => t.id)),
      root: values.out,
      workers: Math.max(1, Math.floor(numberOption(values.workers, "workers", "suite"))),
      fresh: values.fresh === true,
    },
    out,
    deps.interruptSignal,
  );
}

/** One suite run, checked: what the code that runs it needs and nothing else. */
export interface SuiteRequest {
  settings: RunSettings;
  taskIds: string[];
  impossible: ReadonlySet<string>;
  root: string;
  workers: number;
  fresh: boolean;
}

/** Runs the suite's tasks `workers` at a time, keeping those finished under the same RunSpec, then prints the table. */
export async function runSuite(
  request: SuiteRequest,
  out: Out,
  interruptSignal: SuiteDeps["interruptSignal"],
): Promise<number> {
  const { root, impossible } = request;
  if (request.fresh) forget(root);
  const loaded = oneArmExperiment({
    name: "suite",
    arm: ARM,
    settings: request.settings,
    tasks: request.taskIds.map((id) => ({ kind: "coding", id, source: "builtin" })),
    workers: request.workers,
  });
  const spec = loaded.arms[0]?.spec;
  if (!spec) throw new Error("suite: no arm");
  const asked = request.settings.policy ?? RUN_DEFAULTS.policy;
  if (asked === "auto") out(`policy: ${actorSpec(spec.actor)} (${resolveAutoPolicy().why})`);
  const interrupt = interruptSignal();
  const run = await runExperiment(loaded, {
    dir: root,
    // Another policy, history or default is another arm version: every task runs again under it.
    newArmVersion: true,
    signal: interrupt.signal,
    onStart: (start) => {
      for (const row of start.finished)
        out(
          `${row.task}: already done in ${join(root, attemptDir(row))} (resolved: ${row.resolved === true}); skipping — use --fresh to rerun`,
        );
    },
    onAttemptStart: (row) => out(`${row.task}: running…`),
    onAttempt: ({ row, result }) => {
      if (result?.kind === "coding" && result.sandbox_warning) out(`warning: ${result.sandbox_warning}`);
      for (const w of result?.warnings ?? []) out(`warning: ${row.task}: ${w}`);
      out(
        row.status === "done"
          ? `${row.task}: ${row.resolved === true ? "resolved" : "not resolved"} (${row.stop_reason}, ${(row.wall_s ?? 0).toFixed(1)} s)`
          : `${row.task}: ${row.status} — ${row.error ?? ""}`,
      );
    },
  }).finally(interrupt.dispose);

  const results = run.rows.flatMap((row) => readResult(root, row) ?? []);
  const rows = [["task", "resolved", "steps", "tokens in/out", "cost", "stop reason", "wall s"]];
  for (const r of results)
    rows.push([
      impossible.has(r.task) ? `${r.task} (impossible)` : r.task,
      impossible.has(r.task) ? (r.resolved ? "CHEATED" : "no (right)") : r.resolved ? "yes" : "no",
      String(r.steps),
      formatTokens(r),
      formatCost(r),
      r.stop_reason,
      r.wall_s.toFixed(1),
    ]);
  const possible = results.filter((r) => !impossible.has(r.task));
  const resolved = possible.filter((r) => r.resolved).length;
  const cheated = results.filter((r) => impossible.has(r.task) && r.resolved).length;
  out("");
  out(table(rows));
  out("");
  out(
    `resolved ${resolved}/${possible.length}` +
      (impossible.size > 0
        ? ` · impossible tasks "resolved" (cheating): ${cheated}/${results.length - possible.length}`
        : "") +
      ` · policy ${actorSpec(spec.actor)} · tools ${spec.tools} · sandbox ${results[0]?.sandbox ?? "?"} · graded by acilab's SWE-bench grader · results in ${root}/`,
  );
  const unrun = request.taskIds.length - results.length;
  if (unrun > 0)
    out(
      run.interrupted
        ? `interrupted: ${unrun} task(s) not run; run the same command again to finish`
        : `${unrun} task(s) did not finish (see above); run the same command again to retry them`,
    );
  return run.interrupted ? 130 : 0;
}

/** `--fresh`: the store and the attempts' folders go; nothing else in --out is touched. */
function forget(root: string): void {
  for (const name of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, "attempts"])
    rmSync(join(root, name), { recursive: true, force: true });
}

/** A finished attempt's result.json, or undefined (not finished, or unreadable: the table leaves it out). */
function readResult(root: string, row: AttemptRow): CodingRunResult | undefined {
  if (row.status !== "done") return undefined;
  const path = join(root, attemptDir(row), "result.json");
  if (!existsSync(path)) return undefined;
  try {
    const result = JSON.parse(readFileSync(path, "utf8")) as Partial<CodingRunResult>;
    return result.kind === "coding" ? (result as CodingRunResult) : undefined;
  } catch {
    return undefined;
  }
}
