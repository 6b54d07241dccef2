/**
 * The experiment store and its statistics at scale, on synthetic rows in a temporary database:
 * 100,000 attempts written the way a run writes them (the plan in one transaction, then one
 * transaction per finished attempt), and the report's analysis of 7 arms × 500 tasks × 5 repeats
 * (read from the database + analysed); and the harness's cost per attempt over a bare run of the same
 * task (real runs of the Acme tool task with its scripted policy: fast, and still a sandbox and a
 * grade per attempt).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  type AttemptKey,
  AttemptStore,
  analyzeExperiment,
  loadExperiment,
  readExperimentDir,
  runExperiment,
} from "../src/experiment/index.js";
import { actorOf, runKind, toolsRun } from "../src/run/index.js";
import { acmeTask } from "../src/tasks/index.js";
import { type BenchRow, summarise } from "./stats.js";

/** The targets: a store a real experiment cannot outgrow, and a report that feels instant. */
const STORE_ROWS = 100_000;
const STORE_TARGET_MS = 10_000;
const STATS_ARMS = 7;
const STATS_TASKS = 500;
const STATS_REPEATS = 5;
const STATS_TARGET_MS = 1_000;
const STATS_SAMPLES = 5;

/** Attempts per side of the overhead comparison, and its target: ≤ 5 % of a bare run + 50 ms. */
const OVERHEAD_ATTEMPTS = 9;
const overheadTarget = (bareMs: number) => 0.05 * bareMs + 50;

/**
 * The experiment runner's cost per attempt over `runAnyTask` alone: bare runs, the same attempts
 * through `experiment run` (one worker, so attempts do not overlap), bare runs again; the bare
 * median is taken over both bare batches so drift during the run hits both sides.
 */
async function overheadPerAttempt(root: string): Promise<{ bare: number[]; overheadMs: number }> {
  const bare: number[] = [];
  const bareBatch = async (tag: string) => {
    for (let i = 0; i < OVERHEAD_ATTEMPTS; i++) {
      const start = performance.now();
      await runKind(toolsRun(acmeTask, { actionFormat: "code" }), {
        actor: actorOf("scripted"),
        out: join(root, `bare-${tag}-${i}`),
      });
      bare.push(performance.now() - start);
    }
  };
  await bareBatch("a");
  const file = join(root, "overhead.yaml");
  writeFileSync(
    file,
    `name: overhead\narms: [{ name: code, policy: scripted, action_format: code }]\ntasks: [acme]\nrepeats: ${OVERHEAD_ATTEMPTS}\nworkers: 1\n`,
  );
  const start = performance.now();
  const run = await runExperiment(loadExperiment(file), { dir: join(root, "overhead"), workers: 1 });
  const perAttempt = (performance.now() - start) / OVERHEAD_ATTEMPTS;
  if (run.rows.some((r) => r.status !== "done"))
    throw new Error("bench: an overhead attempt did not finish: the comparison would be meaningless");
  await bareBatch("b");
  const sorted = [...bare].sort((a, b) => a - b);
  return { bare, overheadMs: perAttempt - (sorted[Math.floor(sorted.length / 2)] as number) };
}

/** A deterministic "random" outcome, so two runs of the benchmark analyse the same rows. */
const resolvedAt = (i: number) => (i * 2654435761) % 100 < 60;

async function fill(dir: string, arms: number, tasks: number, repeats: number): Promise<number> {
  const store = await AttemptStore.open(dir, "bench");
  const names = Array.from({ length: arms }, (_, a) => `arm-${a}`);
  const versions = store.syncArms(
    names.map((name) => ({ name, fields: { tools: name }, hash: name })),
    false,
  );
  store.recordBaseline(names[0] as string);
  const keys: AttemptKey[] = versions.flatMap((v) =>
    Array.from({ length: tasks * repeats }, (_, i) => ({
      arm: v.name,
      arm_version: v.version,
      task_kind: "coding",
      task: `task-${Math.floor(i / repeats)}`,
      repeat: (i % repeats) + 1,
    })),
  );
  const start = performance.now();
  store.plan(keys);
  for (const row of store.attempts(versions)) {
    const resolved = resolvedAt(row.id);
    store.markDone(row.id, {
      resolved,
      stop_reason: resolved ? "submitted" : row.id % 3 === 0 ? "step_limit" : "submitted",
      steps: 5 + (row.id % 20),
      tokens_in: 20_000 + (row.id % 5000),
      tokens_out: 800 + (row.id % 300),
      cache_read: 0,
      cache_write: 0,
      cost_usd: 0.05,
      wall_s: 30,
      first_edit_step: 3,
      failure_class: resolved ? null : "wrong_fix",
      trajectory: null,
      patch: null,
      report: null,
    });
  }
  const ms = performance.now() - start;
  store.close();
  return ms;
}

export async function benchExperiment(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), "acilab-bench-experiment-"));
  try {
    // 100,000 = 4 arms × 5,000 tasks × 5 repeats
    const storeMs = await fill(join(root, "store"), 4, STORE_ROWS / 4 / 5, 5);
    const statsDir = join(root, "stats");
    await fill(statsDir, STATS_ARMS, STATS_TASKS, STATS_REPEATS);
    const samples: number[] = [];
    for (let i = 0; i < STATS_SAMPLES; i++) {
      const start = performance.now();
      analyzeExperiment(readExperimentDir(statsDir));
      samples.push(performance.now() - start);
    }
    const overhead = await overheadPerAttempt(join(root, "runs"));
    const bareRow = summarise(
      "experiment: bare run of one attempt (acme, code actions in bwrap, scripted)",
      overhead.bare,
    );
    return [
      bareRow,
      {
        name: "experiment: overhead per attempt over the bare run (≤ 5 % + 50 ms)",
        n: OVERHEAD_ATTEMPTS,
        medianMs: overhead.overheadMs,
        p95Ms: overhead.overheadMs,
        targetMs: overheadTarget(bareRow.medianMs),
      },
      {
        ...summarise(
          `store: ${STORE_ROWS.toLocaleString("en")} attempt rows written`,
          [storeMs],
          STORE_TARGET_MS,
        ),
      },
      summarise(
        `statistics: ${STATS_ARMS} arms × ${STATS_TASKS} tasks × ${STATS_REPEATS} repeats (read + analyse)`,
        samples,
        STATS_TARGET_MS,
      ),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
