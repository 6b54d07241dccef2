/**
 * The sampling section's tables and notes, one definition for Markdown and HTML: per arm, pass@k
 * (coverage, from the hidden tests) beside each selector chain's best-of-k (what it would submit), at
 * k = 1, 2, 4, … and n, and the dollars one submission costs with k candidates.
 */
import type { ArmSampling, SamplingAnalysis } from "../experiment/index.js";
import { formatProportion } from "../stats/index.js";
import { dollars, pct, type Table } from "./cells.js";

export const SAMPLING_NOTE =
  "pass@k is the unbiased estimator over each task's n samples (1 − C(n−c, k)/C(n, k)): the chance some candidate of k resolves the task — coverage, judged by the hidden tests. best-of-k is what a chain submits from a task's first k samples, judged by the hidden tests only afterwards. oracle reads the hidden tests: it is the ceiling, never a result. $ per submission is what the k samples cost (all are paid for); a verifier's calls are counted apart, the selection's grading runs not at all.";

/** k = 1, 2, 4, … up to n, and n itself. */
export function samplingKs(n: number): number[] {
  const ks: number[] = [];
  for (let k = 1; k < n; k *= 2) ks.push(k);
  if (n > 0) ks.push(n);
  return ks;
}

export function samplingTable(arm: ArmSampling): Table {
  const curves = arm.selectors.filter((s) => s.error === undefined);
  return {
    head: ["k", "pass@k", ...curves.map((c) => `${c.chain} best-of-k`), "$ per submission"],
    rows: samplingKs(arm.n).map((k) => [
      String(k),
      pct(arm.passAtK[k - 1] ?? Number.NaN),
      ...curves.map((c) => {
        const p = c.bestOfK[k - 1];
        return p ? formatProportion({ ...p, k: p.resolved }) : "—";
      }),
      dollars(arm.dollarsPerSelected[k - 1] ?? null),
    ]),
  };
}

/** What a reader must know to read an arm's table right: the gaps, what is missing, and why. */
export function samplingNotes(arm: ArmSampling): string[] {
  const notes: string[] = [];
  for (const s of arm.selectors) {
    if (s.error !== undefined) notes.push(`${s.chain}: no curve — ${s.error}`);
    else {
      notes.push(
        `${s.chain}: best-of-${arm.n} ${pct(s.bestOfK.at(-1)?.rate ?? Number.NaN)} against pass@${arm.n} ${pct(arm.passAtK.at(-1) ?? Number.NaN)} — a gap of ${(100 * s.gap).toFixed(1)} points`,
      );
      if (s.nothingSubmitted > 0)
        notes.push(
          `${s.chain}: ${s.nothingSubmitted} task(s) with no candidate to submit at k = ${arm.n} (no patch, or none applied)`,
        );
    }
  }
  const v = arm.verifier;
  if (v) {
    notes.push(
      `verifier ${v.spec}: ${v.calls} call(s), ${v.unparsable} reply(ies) without a readable score (ranked last), ${v.cost_usd === null ? "cost unknown (no price for its model)" : `$${v.cost_usd.toFixed(4)}`}`,
    );
    notes.push(
      v.fit
        ? `verifier model fitted to ${v.fit.scored} scored candidate(s): margin ${v.fit.margin.toFixed(3)}, sigma ${v.fit.sigma.toFixed(3)} — bon_curve at these tasks' p predicts best-of-${arm.n} ${pct(v.fit.predicted.at(-1) ?? Number.NaN)} (the dashed curve)`
        : "verifier model not fitted: it needs scores of both resolved and unresolved candidates",
    );
  }
  if (arm.incomplete.length > 0)
    notes.push(
      `${arm.incomplete.length} task(s) left out, a sample not done: ${arm.incomplete.slice(0, 8).join(", ")}${arm.incomplete.length > 8 ? ", …" : ""}`,
    );
  if (arm.identicalCandidates > 0)
    notes.push(
      `${arm.identicalCandidates} of ${arm.tasks} task(s) have one distinct patch among their samples: selection cannot differ from a single sample there${arm.identicalCandidates === arm.tasks ? " (a deterministic policy, such as a scripted one, samples the same patch every time)" : ""}`,
    );
  return notes;
}

export function samplingSummary(s: SamplingAnalysis): string {
  return `${s.samples} samples per task; selectors ${s.selectors.length > 0 ? s.selectors.join(", ") : "none (coverage only)"}.`;
}
