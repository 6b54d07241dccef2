/**
 * `npm run bench bon`: the pure parts of many-candidate selection at the sizes the issue names —
 * normalising and voting over 1,000 candidate patches, and bon_curve for 500 issues × n = 1..64 —
 * and sampling itself: 32 candidates of one built-in task (scripted policy, real sandbox and grader)
 * on 2 workers against the same 32 one after another, and what one copy-on-write checkout costs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadExperiment, runExperiment } from "../src/experiment/index.js";
import { choose, normalisePatch, parseChain } from "../src/select/index.js";
import { betaSample, bonCurve } from "../src/stats/index.js";
import { checkoutTask, loadTask } from "../src/tasks/index.js";
import { type BenchRow, summarise } from "./stats.js";

const BASE = Array.from(
  { length: 40 },
  (_, i) =>
    `def f${i}(values):\n    total = 0\n    for v in values:\n        total += v * ${i}\n    return total\n\n`,
).join("\n");

/** Candidate i edits one of 10 functions in one of 4 styles: 40 distinct fixes, many equivalent. */
function candidate(i: number): string {
  const fn = i % 10;
  const start = fn * 7 + 1;
  const style = ["", "  # tweak", "", "   "][Math.floor(i / 10) % 4] ?? "";
  return `diff --git a/lib/core.py b/lib/core.py\n--- a/lib/core.py\n+++ b/lib/core.py\n@@ -${start},5 +${start},6 @@\n def f${fn}(values):\n     total = 0\n+    values = list(values)${style}\n     for v in values:\n         total += v * ${fn}\n     return total\n`;
}

/** Candidate i adds a line unique to it: 1,000 different post-images, none parsed twice. */
function distinct(i: number): string {
  return candidate(i).replace("values = list(values)", `values = list(values)[:${i + 1}]`);
}

async function voteOver(patches: readonly string[], runs: number): Promise<number[]> {
  const readBase = async () => BASE;
  const voteRuns: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const keys = await Promise.all(patches.map((p) => normalisePatch(p, readBase)));
    const pick = choose(
      parseChain("vote"),
      keys.map((k, i) => ({ sample: i + 1, hasPatch: true, resolved: false, normalised: k.key })),
    );
    if (pick.sample === null) throw new Error("bench bon: the vote submitted nothing");
    voteRuns.push(performance.now() - t0);
  }
  return voteRuns;
}

const SAMPLES = 32;
const SAMPLE_TASK = "median-even";

/** One experiment of `samples` candidates of SAMPLE_TASK on `workers`: its wall time in ms. */
async function sampleWall(workers: number, samples = SAMPLES): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "acilab-bench-bon-"));
  try {
    const file = join(dir, "e.yaml");
    writeFileSync(
      file,
      `name: bon\nbase: { policy: scripted }\narms: { a: {} }\ntasks: [${SAMPLE_TASK}]\nsamples: ${samples}\nworkers: ${workers}\n`,
    );
    const t0 = performance.now();
    const run = await runExperiment(loadExperiment(file), { dir: join(dir, "out") });
    const wall = performance.now() - t0;
    const bad = run.rows.filter((r) => r.status !== "done" || r.resolved !== true);
    if (bad.length > 0)
      throw new Error(
        `bench bon: ${bad.length} sample(s) did not resolve — ${bad[0]?.error ?? bad[0]?.stop_reason}`,
      );
    return wall;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What one candidate's checkout costs: made from the task's snapshot and thrown away. */
async function checkoutCost(count: number): Promise<number[]> {
  const task = loadTask(SAMPLE_TASK);
  await (await checkoutTask(task)).checkout.dispose(); // the snapshot is built once, outside the timing
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const { checkout } = await checkoutTask(task);
    await checkout.dispose();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Sampling rows: sequential and parallel wall time per candidate, their ratio, checkout cost. */
async function benchSampling(): Promise<BenchRow[]> {
  await sampleWall(1, 1); // warm: the task's repository and snapshot are built once, outside the timing
  const sequential = await sampleWall(1);
  const parallel = await sampleWall(2);
  const perCandidate = (ms: number) => [ms / SAMPLES];
  const speedup = sequential / parallel;
  return [
    summarise(
      `bon: ${SAMPLES} samples of ${SAMPLE_TASK} one after another, per candidate`,
      perCandidate(sequential),
    ),
    summarise(
      `bon: ${SAMPLES} samples on 2 workers, per candidate (${speedup.toFixed(2)}× faster; target ≥ 1.8×)`,
      perCandidate(parallel),
    ),
    summarise(
      `bon: one candidate's copy-on-write checkout (${SAMPLE_TASK}), made and removed`,
      await checkoutCost(SAMPLES),
    ),
  ];
}

export async function benchBon(): Promise<BenchRow[]> {
  const repeated = await voteOver(
    Array.from({ length: 1000 }, (_, i) => candidate(i)),
    3,
  );
  // Each run uses new text, so the post-image cache cannot serve a later run from an earlier one.
  const different: number[] = [];
  for (let r = 0; r < 3; r++)
    different.push(
      ...(await voteOver(
        Array.from({ length: 1000 }, (_, i) => distinct(i + 1000 * r)),
        1,
      )),
    );
  const p = betaSample(0.3, 0.45, 500, 0);
  const curveRuns: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    bonCurve(p, 64, 1, 1);
    curveRuns.push(performance.now() - t0);
  }
  return [
    ...(await benchSampling()),
    summarise("bon: normalise + vote, 1,000 candidates (40 distinct edits)", repeated, 1000),
    summarise("bon: normalise + vote, 1,000 candidates (all different)", different, 1000),
    summarise("bon: bon_curve, 500 issues × n = 1..64", curveRuns, 1000),
  ];
}
