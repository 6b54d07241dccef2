/**
 * `npm run bench bon`: the pure parts of many-candidate selection at the sizes the issue names —
 * normalising and voting over 1,000 candidate patches, and bon_curve for 500 issues × n = 1..64.
 * (Sampling 32 candidates in parallel checkouts waits on the experiment integration; see the note.)
 */
import { choose, normalisePatch, parseChain } from "../src/select/index.js";
import { betaSample, bonCurve } from "../src/stats/index.js";
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
    summarise("bon: normalise + vote, 1,000 candidates (40 distinct edits)", repeated, 1000),
    summarise("bon: normalise + vote, 1,000 candidates (all different)", different, 1000),
    summarise("bon: bon_curve, 500 issues × n = 1..64", curveRuns, 1000),
  ];
}
