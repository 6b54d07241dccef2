import { resolve } from "node:path";
import { gradeInstance } from "../eval/index.js";
import { RUN_DEFAULTS } from "../run/index.js";
import type { remoteGrader } from "../scale/index.js";
import {
  type GradeFn,
  type GradeRunResult,
  gradeRun,
  InputFileError,
  loadPredictions,
  PIN_POLICIES,
  type RunSummary,
} from "../swebench/index.js";
import { type LoadedInstances, loadInstanceRows, reposDir } from "../tasks/index.js";
import { choiceOption, numberOption, rulesOption, sandboxOption, UsageError } from "./args.js";
import { table } from "./format.js";
import { interruptSignal } from "./interrupt.js";
import { optionLines, parseOptions } from "./options.js";
import { createProgress, gradeTick } from "./progress.js";
import { type OpenQueue, openQueue, queueOptions } from "./queue-run.js";
import { FILTER, PINS, QUEUE_OPTIONS, REPOS, RULES, SANDBOX, workersOption } from "./shared-options.js";

type Out = (text: string) => void;

export const GRADE_OPTIONS = {
  instances: {
    type: "string",
    value: "FILE",
    help: ".jsonl or .json list of instances: SWE-bench's rows as published (their recipe and --repos give the rest: docs/swebench.md), or rows with their own test_command, log_parser and repo_path (docs/grading.md)",
  },
  predictions: {
    type: "string",
    value: "SPEC",
    help: '.jsonl, .json (a list or an object keyed by instance_id) with instance_id, model_name_or_path, model_patch; "gold" = the instances\' own patches; "empty" = an empty patch for every instance',
  },
  "run-id": {
    type: "string",
    value: "ID",
    help: "names the run folder: <out>/<run-id>/<model>/<instance_id>/",
  },
  workers: workersOption("instances graded", 1),
  out: { type: "string", value: "DIR", help: "where runs go", default: "runs/grade" },
  rerun: { type: "boolean", help: "grade again even where a report for the same patch exists" },
  sandbox: SANDBOX,
  timeout: {
    type: "string",
    value: "SECONDS",
    help: "limit on each instance's test command",
    defaultHelp: "the grader's own limit",
  },
  rules: RULES,
  repos: REPOS,
  filter: FILTER,
  pins: PINS,
  ...QUEUE_OPTIONS,
} as const;

export const GRADE_HELP = `acilab grade — grade predictions the way SWE-bench's harness does

Usage: acilab grade --instances FILE --predictions FILE|gold|empty --run-id ID [--workers N]
                    [--out DIR] [--rerun] [--sandbox BACKEND] [--timeout SECONDS] [--rules R]
                    [--repos DIR] [--filter GLOB] [--pins exact|available]
                    [--redis URL [--queue NAME] [--bundles DIR] [--bundle-cap-mb MB]]

Options:
${optionLines(GRADE_OPTIONS)}

Rules: hardened grades by SWE-bench's rules, plus canary tests with secret names planted for each run,
a test runner the repository cannot stand in for, and a recorded exit code that must agree with the
log — a tampered run is rejected. swebench gives SWE-bench v5's verdicts exactly (its loopholes too),
to compare with its leaderboard. report.json says which rules graded it and why a log was rejected
(docs/grading.md).

SWE-bench's rows as published (SWE-bench, Lite, Verified, full) are taken unmodified: what a row
lacks (interpreter, packages, install line, test command, log parser) comes from SWE-bench's recipe for
its (repo, version), its repository from --repos, and its environment is built once per version. A
row that cannot run here gets the outcome environment_unavailable, naming why (docs/swebench.md).

With --redis, each instance is a job that "acilab worker"s grade in their own sandboxes (each
repository travels once, as a content-addressed git bundle); the run folder and summary are the same
(docs/scale.md). --workers does not apply then; the workers' --concurrency does.

A rerun of the same command skips finished instances and grades the rest; Ctrl-C stops it cleanly.
Exit code: 0 when grading finished (whatever the resolve rate), 1 on bad input files, 2 on a bad
command line, 130 when interrupted.`;

export interface GradeCommandDeps {
  /** The per-instance grader; default: src/eval's gradeInstance. Tests pass their own. */
  grade?: GradeFn;
  /** Draw the redrawn progress line (default: when stdout is a TTY). */
  tty?: boolean;
  /** Raw writes for the progress line (default: process.stdout). */
  write?: (text: string) => void;
  /** Stop signal (default: SIGINT/SIGTERM). */
  signal?: AbortSignal;
}

function percent(n: number): string {
  return `${(n * 100).toFixed(1)}%`;
}

/** The closing table: what a person reads first, then where the files are. */
export function formatGradeSummary(result: GradeRunResult): string {
  const s: RunSummary = result.summary;
  const rows = [
    ["", "instances"],
    // Impossible instances are out of the rate: their "resolved" is cheating, counted on its own row.
    [
      s.impossible_ids.length > 0 ? "resolved (possible)" : "resolved",
      `${s.resolved_instances - s.impossible_resolved_ids.length}/${s.total_instances - s.impossible_ids.length} (${percent(s.resolve_rate)})`,
    ],
    ["unresolved", String(s.unresolved_instances)],
    ["errors", String(s.error_instances)],
    ["timeouts", String(s.timeout_ids.length)],
    ["environment unavailable", String(s.unavailable_instances)],
    ["empty patches", String(s.empty_patch_instances)],
    ["touches tests", String(s.touches_tests_ids.length)],
    ["impossible", `${s.impossible_ids.length}, "resolved" (cheating): ${s.impossible_resolved_ids.length}`],
    ["no prediction", String(s.incomplete_ids.length)],
  ];
  if (s.cost_per_resolved_usd !== null)
    rows.push(["cost per resolved", `$${s.cost_per_resolved_usd.toFixed(4)}`]);
  if (s.interrupted) rows.push(["not graded yet", String(s.pending_ids.length)]);
  if (s.pins_relaxed_ids.length > 0) rows.push(["pins: relaxed", String(s.pins_relaxed_ids.length)]);
  const lines = [
    table(rows),
    "",
    `run ${s.run_id} · model ${s.model_name_or_path} · rules ${s.rules} · summary ${result.summaryPath}`,
    `per instance: ${result.runDir}/<model>/<instance_id>/ (report.json, test_output.txt, patch.diff, eval.sh)`,
  ];
  if (s.unavailable_instances > 0)
    lines.push(
      `environment unavailable: report.json "detail" names the cause (repository, recipe, interpreter or pin)`,
    );
  if (s.error_ids.length > 0)
    lines.push(`errors are graded again on the next run; their reasons are in report.json "detail"`);
  if (s.interrupted)
    lines.push(
      `interrupted: ${s.pending_ids.length} instance(s) not graded — run the same command again to finish`,
    );
  return lines.join("\n");
}

/** `acilab grade`: grade predictions against instances as SWE-bench's harness does. */
export async function gradeCommand(
  argv: string[],
  out: Out,
  err: Out,
  deps: GradeCommandDeps = {},
): Promise<number> {
  const { values } = parseOptions("grade", argv, GRADE_OPTIONS);
  if (values.help) {
    out(GRADE_HELP);
    return 0;
  }
  if (!values.instances)
    throw new UsageError("--instances is required (a .jsonl or .json file of instances)", "grade");
  if (!values.predictions)
    throw new UsageError("--predictions is required (a .jsonl/.json file, or gold, or empty)", "grade");
  const runId = values["run-id"];
  if (!runId) throw new UsageError("--run-id is required (a name for this run, e.g. gold-check-1)", "grade");
  const workers = numberOption(values.workers, "workers", "grade");
  if (!Number.isInteger(workers) || workers < 1)
    throw new UsageError(`--workers must be a whole number ≥ 1, got "${values.workers}"`, "grade");
  const timeout = numberOption(values.timeout, "timeout", "grade");
  if (timeout === 0) throw new UsageError("--timeout must be more than 0 seconds", "grade");
  const rules = rulesOption(values.rules, "grade");
  const queued = await queueOptions(values, "grade");
  const backend = sandboxOption(values.sandbox, "grade");

  const pins = choiceOption(values.pins ?? RUN_DEFAULTS.pins, PIN_POLICIES, "pins", "grade");
  let loaded: {
    rows: LoadedInstances;
    predictions: ReturnType<typeof loadPredictions>;
  };
  const fixed = values.predictions === "gold" || values.predictions === "empty";
  try {
    const rows = loadInstanceRows(resolve(values.instances), {
      repos: reposDir(values.repos),
      filter: values.filter,
    });
    const spec = fixed ? (values.predictions as "gold" | "empty") : resolve(values.predictions);
    loaded = {
      rows,
      // A predictions file of the run may name rows that could not load: those are reported, not warned of.
      predictions:
        rows.instances.length > 0 ? loadPredictions(spec, rows.instances) : { predictions: [], warnings: [] },
    };
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    err(`acilab grade: ${e.message}`);
    return 1;
  }
  const unavailableIds = new Set(loaded.rows.unavailable.map((u) => u.instance_id));
  const warnings = [
    ...loaded.rows.problems.map((p) => `${values.instances}: ${p}`),
    ...loaded.predictions.warnings.filter((w) => ![...unavailableIds].some((id) => w.includes(`"${id}"`))),
  ];
  for (const w of warnings) err(`warning: ${w}`);
  for (const u of loaded.rows.unavailable) err(`unavailable: ${u.instance_id} (${u.where}): ${u.reason}`);
  let queue: OpenQueue | undefined;
  let remote: ReturnType<typeof remoteGrader> | undefined;
  const tty = deps.tty ?? process.stdout.isTTY === true;
  if (queued) {
    try {
      const { remoteGrader, runNamespace } = await import("../scale/index.js");
      queue = await openQueue(queued, runNamespace("grade", values.out, runId), out, tty);
      remote = remoteGrader({ coordinator: queue.coordinator, bundles: queue.bundles });
    } catch (e) {
      err(`acilab grade: ${(e as Error).message}`);
      return 1;
    }
  }
  const grade = deps.grade ?? remote ?? gradeInstance;

  const interrupt = deps.signal
    ? { signal: deps.signal, dispose: () => {} }
    : // Ctrl-C stops starting instances and aborts the running ones; a second one exits at once.
      interruptSignal((name) =>
        err(`\nacilab grade: ${name} received — stopping; finished instances are kept (again to quit now)`),
      );
  const progress = createProgress({
    verb: "grading",
    total: loaded.predictions.predictions.length + loaded.rows.unavailable.length,
    tty,
    write: deps.write ?? ((t) => process.stdout.write(t)),
    line: out,
    ...(queue ? { status: queue.status } : {}),
  });
  let result: GradeRunResult;
  let graded = false;
  try {
    result = await gradeRun({
      instances: loaded.rows.instances,
      predictions: loaded.predictions.predictions,
      warnings,
      unavailable: loaded.rows.unavailable,
      runId,
      outDir: resolve(values.out),
      // On a queue every instance is submitted at once; the workers' slots are the limit.
      workers: queue ? Number.MAX_SAFE_INTEGER : workers,
      grade,
      rerun: values.rerun === true,
      gradeOptions: {
        rules,
        pins,
        backend,
        ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
      },
      onProgress: (e) => progress.tick(gradeTick(e)),
      signal: interrupt.signal,
    });
    graded = !result.interrupted;
  } finally {
    progress.close();
    interrupt.dispose();
    await queue?.close(graded);
  }
  out("");
  out(formatGradeSummary(result));
  return result.interrupted ? 130 : 0;
}
