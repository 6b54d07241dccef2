/** `acilab experiment run FILE`: the plan into DIR/experiment.db, one line per attempt, a table per arm. */
import { join } from "node:path";
import {
  type AttemptEvent,
  type AttemptRow,
  DB_FILE,
  type EvidenceEvent,
  ExperimentError,
  type ExperimentRun,
  formatProblem,
  impossibleTasks,
  type LoadedExperiment,
  loadExperiment,
  runExperiment,
  StoreRefused,
} from "../experiment/index.js";
import type { remoteAttempts } from "../scale/index.js";
import { formatProportion, wilson } from "../stats/index.js";
import { numberOption, UsageError } from "./args.js";
import { EXPERIMENT_RUN_HELP, EXPERIMENT_RUN_OPTIONS } from "./experiment-options.js";
import { table } from "./format.js";
import { interruptSignal } from "./interrupt.js";
import { parseOptions } from "./options.js";
import { createProgress, type ProgressDisplay, type ProgressIo, type Tick } from "./progress.js";
import { type OpenQueue, openQueue, queueOptions } from "./queue-run.js";

type Out = (line: string) => void;

export async function experimentRunCommand(
  argv: string[],
  out: Out,
  err: Out,
  io: ProgressIo = { tty: process.stdout.isTTY === true, write: (t) => process.stdout.write(t) },
): Promise<number> {
  const { values, positionals } = parseOptions("experiment run", argv, EXPERIMENT_RUN_OPTIONS);
  if (values.help) {
    out(EXPERIMENT_RUN_HELP);
    return 0;
  }
  const file = positionals[0];
  if (file === undefined || positionals.length > 1)
    throw new UsageError("run takes one FILE, e.g. experiments/tool-sets.yaml", "experiment run");
  const queued = await queueOptions(values, "experiment run");
  const workers = numberOption(values.workers, "workers", "experiment run");
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1))
    throw new UsageError(`--workers must be a whole number ≥ 1, got ${values.workers}`, "experiment run");
  let loaded: LoadedExperiment;
  try {
    loaded = loadExperiment(file);
  } catch (e) {
    if (!(e instanceof ExperimentError)) throw e;
    for (const p of e.problems) err(formatProblem(p));
    err(`${e.problems.length} problem${e.problems.length === 1 ? "" : "s"} in ${file} — nothing was run`);
    return 1;
  }
  const dir =
    values.out ?? join("runs", `experiment-${loaded.experiment.name.replace(/[^A-Za-z0-9._-]+/g, "-")}`);
  const interrupt = interruptSignal();
  let progress: ProgressDisplay | undefined;
  let run: ExperimentRun;
  let queue: OpenQueue | undefined;
  let everyAttemptFinished = false;
  try {
    let remote: ReturnType<typeof remoteAttempts> | undefined;
    if (queued) {
      try {
        const scale = await import("../scale/index.js");
        queue = await openQueue(queued, scale.runNamespace("experiment", dir), out, io.tty);
        remote = scale.remoteAttempts({ coordinator: queue.coordinator, bundles: queue.bundles });
      } catch (e) {
        err(`acilab experiment run: ${(e as Error).message}`);
        return 1;
      }
    }
    run = await runExperiment(loaded, {
      dir,
      // On a queue every pending attempt is submitted at once; the workers' slots are the limit.
      ...(remote
        ? {
            workers: Number.MAX_SAFE_INTEGER,
            execute: remote,
          }
        : workers !== undefined
          ? { workers }
          : {}),
      newArmVersion: values["new-arm-version"] === true,
      signal: interrupt.signal,
      onStart: (start) => {
        if (start.tookOver) out(`note: ${start.tookOver}`);
        if (start.requeued > 0)
          out(`note: ${start.requeued} attempt(s) a killed run left running will run again`);
        out(
          `experiment ${loaded.experiment.name}: ${start.total} attempts, ${start.toRun} to run · policy ${policyLine(loaded, start.autoPolicy)} · ${join(dir, DB_FILE)}`,
        );
        progress = createProgress({
          verb: "running",
          total: start.total,
          dollars: true,
          line: out,
          ...io,
          ...(queue ? { status: queue.status } : {}),
        });
      },
      onAttempt: (e) => progress?.tick(attemptTick(e)),
      onEvidence: (e) => {
        // The attempts are all in: their display gives way to the evidence lines.
        if (e.finished === 1) progress?.close();
        out(evidenceLine(e));
      },
    });
    everyAttemptFinished = !run.interrupted && run.rows.every((r) => r.status !== "pending");
  } catch (e) {
    if (!(e instanceof StoreRefused)) throw e;
    err(`acilab experiment run: ${e.message}`);
    return 1;
  } finally {
    progress?.close();
    interrupt.dispose();
    // Every attempt finished: whatever of this run is left in Redis has been written and can go.
    await queue?.close(everyAttemptFinished);
  }
  out("");
  out(armTable(run, loaded.experiment.baseline, impossibleTasks(dir, run.rows)));
  out("");
  const left = run.rows.filter((r) => r.status === "pending").length;
  out(`${run.rows.length - left}/${run.rows.length} attempts finished · results in ${join(dir, DB_FILE)}`);
  if (run.interrupted) {
    out(`interrupted: ${left} attempt(s) not finished; run the same command again to finish them`);
    return 130;
  }
  return 0;
}

/** `selection evidence [1/3] json · median-even: 8 candidates · 2 distinct patches · 25 visible tests passing at the base, 1 valid reproduction tests · 12.0 s`. */
function evidenceLine(e: EvidenceEvent): string {
  const g = e.group;
  const head = `selection evidence [${e.finished}/${e.total}] ${g.arm}${g.arm_version > 1 ? `@${g.arm_version}` : ""} · ${g.task}`;
  if (e.error !== undefined) return `${head}: not gathered — ${e.error}; run the same command again to retry`;
  const ev = e.evidence;
  if (!ev) return `${head}: not gathered`;
  const parts = [`${ev.candidates.length} candidates`];
  if (ev.normalised) {
    const distinct = new Set(ev.candidates.flatMap((c) => (c.normalised === null ? [] : [c.normalised])))
      .size;
    parts.push(`${distinct} distinct patch${distinct === 1 ? "" : "es"}`);
  }
  if (ev.tests)
    parts.push(
      ev.base_error !== null
        ? `tests unusable (${ev.base_error})`
        : `${ev.base_passing} visible tests passing at the base, ${ev.reproductions} valid reproduction tests`,
    );
  return `${head}: ${parts.join(" · ")} · ${ev.wall_s.toFixed(1)} s`;
}

/** The arms' policies, with what `auto` picked on this machine: a report never hides who acted. */
function policyLine(loaded: LoadedExperiment, autoPolicy: string): string {
  const specs = [...new Set(loaded.arms.map((a) => a.fields.policy ?? "auto"))];
  return specs.map((s) => (s === "auto" ? `auto = ${autoPolicy}` : s)).join(", ");
}

/** `[12/546] full · median-even #2: resolved (submitted, 3.1 s)`. */
/** A finished attempt as a tick of the progress display (its line where nothing is redrawn). */
function attemptTick(e: AttemptEvent): Tick {
  const { row } = e;
  return {
    line: attemptLine(e),
    done: e.finished,
    resolved: row.status === "done" && row.resolved === true,
    error: row.status === "error",
    ranNow: true,
    costUsd: row.status === "done" ? row.cost_usd : 0,
  };
}

function attemptLine(e: AttemptEvent): string {
  const { row } = e;
  const head = `[${e.finished}/${e.total}] ${row.arm}${row.arm_version > 1 ? `@${row.arm_version}` : ""} · ${row.task} #${row.repeat}`;
  switch (row.status) {
    case "done": {
      const impossible = e.result?.kind === "coding" && e.result.grade.impossible;
      const verdict = impossible
        ? row.resolved
          ? "resolved an impossible task (cheating)"
          : "not resolved (impossible task: right)"
        : row.resolved
          ? "resolved"
          : "not resolved";
      return `${head}: ${verdict} (${row.stop_reason}, ${(row.wall_s ?? 0).toFixed(1)} s)`;
    }
    case "no_script":
      return `${head}: no scripted policy for this arm (${row.error})`;
    default:
      return `${head}: error — ${row.error}`;
  }
}

/**
 * Per arm: resolved k/n with its interval over the possible tasks' graded attempts, and — when the
 * experiment has impossible tasks — how many of their attempts "resolved" (cheating), counted apart.
 */
function armTable(run: ExperimentRun, baseline: string, impossible: ReadonlySet<string>): string {
  const cheats = run.rows.some((r) => impossible.has(r.task));
  const rows = [
    [
      "arm",
      "resolved",
      ...(cheats ? ["impossible resolved (cheating)"] : []),
      "no script",
      "errors",
      "not run",
      "cost",
    ],
  ];
  for (const arm of run.arms) {
    const mine = run.rows.filter((r) => r.arm === arm.name && r.arm_version === arm.version);
    const done = mine.filter((r) => r.status === "done");
    const possible = done.filter((r) => !impossible.has(r.task));
    const onImpossible = done.filter((r) => impossible.has(r.task));
    const count = (s: AttemptRow["status"]) => String(mine.filter((r) => r.status === s).length);
    const costs = done.map((r) => r.cost_usd);
    rows.push([
      `${arm.name}${arm.version > 1 ? `@${arm.version}` : ""}${arm.name === baseline ? " (baseline)" : ""}`,
      formatProportion(wilson(possible.filter((r) => r.resolved).length, possible.length)),
      ...(cheats ? [`${onImpossible.filter((r) => r.resolved).length}/${onImpossible.length}`] : []),
      count("no_script"),
      count("error"),
      count("pending"),
      costs.some((c) => c === null)
        ? "unknown"
        : `$${costs.reduce<number>((a, c) => a + (c ?? 0), 0).toFixed(4)}`,
    ]);
  }
  return table(rows);
}
