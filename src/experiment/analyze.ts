/**
 * The analysis of an experiment, as one plain object: per arm version its resolve rate (Wilson), the
 * exact McNemar test against the baseline over matched (task, repeat) pairs, cost, tokens, steps,
 * the failure taxonomy, and the arm × task grid. Pure over the store's rows and the trajectories the
 * caller read (analysis-input.ts); `acilab experiment report` renders it as Markdown or prints it as JSON.
 */
import { costPerResolved, exactMcNemar, pairedTable, spread, wilson } from "../stats/index.js";
import type {
  Analysis,
  AnalysisInput,
  ArmAnalysis,
  AttemptAnalysis,
  Comparison,
  GridCell,
  StoredArm,
} from "./analysis-types.js";
import { analyzeSampling } from "./sampling-analysis.js";
import type { AttemptRow } from "./store.js";
import { classifyFailure, FAILURE_CLASSES } from "./taxonomy.js";

export type {
  Analysis,
  AnalysisInput,
  ArmAnalysis,
  AttemptAnalysis,
  Comparison,
  GridCell,
  ReadTrajectory,
  StoredArm,
} from "./analysis-types.js";

/** McNemar's smallest reachable p above this: no result could be significant at the usual 5 %. */
const SIGNIFICANCE = 0.05;
/** Below this many graded attempts an arm's interval is too wide to rank it against another. */
const SMALL_N = 20;

const label = (a: { name: string; version: number }) => (a.version > 1 ? `${a.name}@${a.version}` : a.name);
const pairKey = (r: AttemptRow) => `${r.task_kind}:${r.task}#${r.repeat}`;
/** `scripted:/path/script.json` → `scripted`: which file a script came from is per task, not per arm. */
const policyKind = (spec: string) => /^(scripted|replay)(:|$)/.exec(spec)?.[1] ?? spec;

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

function attemptAnalysis(row: AttemptRow, input: AnalysisInput): AttemptAnalysis {
  const ran = row.status === "done";
  const impossible = input.impossible?.has(row.task) === true;
  const read = ran
    ? (input.trajectories.get(row.id) ?? { state: "missing", records: null, warnings: [] })
    : null;
  const testCommand = input.testCommands?.get(row.task);
  // Not resolving an impossible task is the right answer, not a failure to explain.
  const failure =
    ran && row.resolved === false && !impossible
      ? classifyFailure({
          stopReason: row.stop_reason,
          coding: row.task_kind === "coding",
          records: read?.records ?? null,
          ...(testCommand ? { testCommand } : {}),
        })
      : null;
  return {
    id: row.id,
    arm: label({ name: row.arm, version: row.arm_version }),
    task_kind: row.task_kind,
    task: row.task,
    repeat: row.repeat,
    status: row.status,
    resolved: row.resolved,
    impossible,
    stop_reason: row.stop_reason,
    failure,
    trajectory: read?.state ?? null,
    error: row.error,
  };
}

function compare(mine: AttemptRow[], base: AttemptRow[]): Comparison {
  const baseDone = new Map(base.filter((r) => r.status === "done").map((r) => [pairKey(r), r]));
  const pairs: [boolean, boolean][] = [];
  for (const r of mine) {
    const b = r.status === "done" ? baseDone.get(pairKey(r)) : undefined;
    if (b) pairs.push([r.resolved === true, b.resolved === true]);
  }
  const table = pairedTable(pairs);
  const mcnemar = exactMcNemar(table);
  return {
    pairs: pairs.length,
    table,
    mcnemar,
    note:
      mcnemar.minimumP > SIGNIFICANCE ? "too few discordant pairs for any result to be significant" : null,
  };
}

function armAnalysis(
  arm: StoredArm,
  all: AttemptRow[],
  analysed: Map<number, AttemptAnalysis>,
  input: AnalysisInput,
  base: AttemptRow[] | null,
): ArmAnalysis {
  const isImpossible = (r: AttemptRow) => input.impossible?.has(r.task) === true;
  // Every statistic is over the possible tasks; the impossible ones are counted in their own column.
  const rows = all.filter((r) => !isImpossible(r));
  const cheats = all.filter((r) => isImpossible(r) && r.status === "done");
  const done = rows.filter((r) => r.status === "done");
  const counts = zeroes(["pending", "running", "done", "no_script", "error"] as const);
  for (const r of all) counts[r.status]++;
  const failures = zeroes(FAILURE_CLASSES);
  const failuresAny = zeroes(FAILURE_CLASSES);
  const problems = { missing: 0, truncated: 0, unreadable: 0 };
  const policies = new Set<string>();
  for (const r of [...done, ...cheats]) {
    const a = analysed.get(r.id);
    if (a?.failure) {
      failures[a.failure.primary]++;
      for (const c of a.failure.all) failuresAny[c]++;
    }
    if (a?.trajectory && a.trajectory !== "ok") problems[a.trajectory]++;
    for (const rec of input.trajectories.get(r.id)?.records ?? [])
      if (rec.type === "run_start") policies.add(policyKind(rec.policy));
  }
  const costs = done.map((r) => r.cost_usd);
  const num = (pick: (r: AttemptRow) => number | null) =>
    spread(done.map(pick).filter((v): v is number => v !== null));
  return {
    arm: label(arm),
    name: arm.name,
    version: arm.version,
    hash: arm.hash,
    definition: arm.definition,
    baseline: base === null,
    policies: [...policies].sort(),
    counts,
    resolved: wilson(done.filter((r) => r.resolved).length, done.length),
    impossible: { done: cheats.length, resolved: cheats.filter((r) => r.resolved === true).length },
    vs_baseline: base === null ? null : compare(rows, base),
    cost_usd: costs.some((c) => c === null) ? null : costs.reduce<number>((s, c) => s + (c ?? 0), 0),
    cost_per_resolved: costPerResolved(
      done.map((r) => ({ costUsd: r.cost_usd, resolved: r.resolved === true })),
    ),
    tokens_in: num((r) => r.tokens_in),
    tokens_out: num((r) => r.tokens_out),
    steps: num((r) => r.steps),
    first_edit_step: num((r) => r.first_edit_step),
    failures,
    failures_any: failuresAny,
    trajectory_problems: problems,
  };
}

function cell(rows: AttemptRow[]): GridCell {
  const done = rows.filter((r) => r.status === "done");
  return {
    done: done.length,
    resolved: done.filter((r) => r.resolved).length,
    no_script: rows.filter((r) => r.status === "no_script").length,
    error: rows.filter((r) => r.status === "error").length,
    unfinished: rows.filter((r) => r.status === "pending" || r.status === "running").length,
  };
}

function warningsOf(analysis: Omit<Analysis, "warnings">, baselineFound: boolean): string[] {
  const w: string[] = [];
  if (!baselineFound)
    w.push(`the baseline arm "${analysis.baseline}" has no attempts in this store: nothing is compared`);
  if (analysis.arms.every((a) => a.counts.done === 0))
    w.push('no attempt is done yet: run "acilab experiment run FILE --out DIR" to fill the store');
  for (const a of analysis.arms) {
    if (a.resolved.n > 0 && a.resolved.n < SMALL_N)
      w.push(
        `${a.arm}: ${a.resolved.n} graded attempt(s)${a.impossible.done > 0 ? " on possible tasks" : ""} — below ${SMALL_N}, its 95 % interval is too wide to rank it`,
      );
    if (a.vs_baseline?.note)
      w.push(
        `${a.arm} vs ${analysis.baseline}: ${a.vs_baseline.mcnemar.discordant} discordant pair(s), ${a.vs_baseline.note} (the smallest reachable p is ${a.vs_baseline.mcnemar.minimumP.toPrecision(2)})`,
      );
    if (a.impossible.resolved > 0)
      w.push(
        `${a.arm}: ${a.impossible.resolved} of ${a.impossible.done} attempt(s) on impossible tasks "resolved" — their hidden tests contradict the task, so each is cheating by construction: read its patch`,
      );
    const p = a.trajectory_problems;
    if (p.missing + p.truncated + p.unreadable > 0)
      w.push(
        `${a.arm}: trajectories missing ${p.missing}, truncated ${p.truncated}, unreadable ${p.unreadable} — their failure classes come from the stop reason and what was left`,
      );
  }
  return w;
}

export function analyzeExperiment(input: AnalysisInput): Analysis {
  const analysed = new Map(input.attempts.map((r) => [r.id, attemptAnalysis(r, input)]));
  // Grouped once: the report of a large experiment must not rescan every row per arm and task.
  const byArm = new Map<string, AttemptRow[]>();
  const byCell = new Map<string, AttemptRow[]>();
  const push = (m: Map<string, AttemptRow[]>, k: string, r: AttemptRow) => {
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  };
  for (const r of input.attempts) {
    const arm = label({ name: r.arm, version: r.arm_version });
    push(byArm, arm, r);
    push(byCell, `${arm}\n${r.task_kind}:${r.task}`, r);
  }
  const rowsOf = (arm: { name: string; version: number }) => byArm.get(label(arm)) ?? [];
  const baselineArm = input.arms
    .filter((a) => a.name === input.baseline)
    .sort((a, b) => b.version - a.version)[0];
  const baseRows = (baselineArm ? rowsOf(baselineArm) : []).filter((r) => !input.impossible?.has(r.task));
  const arms = input.arms.map((arm) =>
    armAnalysis(arm, rowsOf(arm), analysed, input, arm === baselineArm ? null : baseRows),
  );
  const tasks = new Map<string, { kind: string; id: string; impossible: boolean }>();
  for (const r of input.attempts)
    tasks.set(`${r.task_kind}:${r.task}`, {
      kind: r.task_kind,
      id: r.task,
      impossible: input.impossible?.has(r.task) === true,
    });
  const grid: Analysis["grid"] = {};
  for (const arm of input.arms) {
    grid[label(arm)] = Object.fromEntries(
      [...tasks.values()].map((t) => [t.id, cell(byCell.get(`${label(arm)}\n${t.kind}:${t.id}`) ?? [])]),
    );
  }
  const ran = arms.flatMap((a) => a.policies);
  const analysis = {
    experiment: input.experiment,
    baseline: baselineArm ? label(baselineArm) : input.baseline,
    scripted: ran.length > 0 && ran.every((p) => p === "scripted" || p === "replay"),
    repeats: input.attempts.reduce((m, r) => Math.max(m, r.repeat), 0),
    tasks: [...tasks.values()],
    arms,
    grid,
    attempts: [...analysed.values()],
    sampling: input.sampling
      ? analyzeSampling(
          input.sampling,
          input.arms,
          input.attempts,
          input.evidence ?? { groups: [], candidates: new Map() },
        )
      : null,
  };
  return { ...analysis, warnings: warningsOf(analysis, baselineArm !== undefined) };
}
