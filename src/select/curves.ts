/**
 * Coverage and selection per arm, measured: pass@k by the unbiased estimator over each task's n
 * candidates, and best-of-k for each selector chain as what it submits when it sees a task's first k
 * candidates (samples 1..k) — a real trial per task, counted with its Wilson interval.
 */
import { passAtK, wilson } from "../stats/index.js";
import { type Candidate, type Chain, choose } from "./selectors.js";

export interface TaskCandidates {
  task: string;
  /** Samples 1..n, in order. */
  candidates: Candidate[];
  /** Dollars per candidate, in sample order; null where unknown. */
  costs: (number | null)[];
}

/**
 * Best-of-k at one k: of the `n` tasks, how many the chain's pick from their first `k` candidates
 * `resolved`, with the Wilson interval of that rate. Named for what they are: `k` is the k of best-of-k.
 */
export interface BestOfK {
  k: number;
  resolved: number;
  n: number;
  rate: number;
  low: number;
  high: number;
}

export interface SelectorCurve {
  chain: string;
  /** bestOfK[k − 1]: the chain's best-of-k at k = 1 … n. */
  bestOfK: BestOfK[];
  /** Tasks where the chain submitted nothing at k = n (no candidate had a patch that applied). */
  nothingSubmitted: number;
}

export interface SamplingCurves {
  /** Candidates per task (the smallest group's size: every point uses the same tasks). */
  n: number;
  tasks: number;
  /** passAtK[k − 1]: the mean over tasks of the unbiased pass@k. */
  passAtK: number[];
  selectors: SelectorCurve[];
  /** dollarsPerSelected[k − 1]: what one submission costs with k candidates (all k are paid for); null if a price is unknown. */
  dollarsPerSelected: (number | null)[];
}

export function samplingCurves(groups: readonly TaskCandidates[], chains: readonly Chain[]): SamplingCurves {
  const n = groups.length === 0 ? 0 : Math.min(...groups.map((g) => g.candidates.length));
  const ks = Array.from({ length: n }, (_, i) => i + 1);
  const pass = ks.map(
    (k) =>
      groups.reduce((sum, g) => {
        const first = g.candidates.slice(0, n);
        return sum + passAtK(n, first.filter((c) => c.resolved).length, k);
      }, 0) / groups.length,
  );
  const selectors = chains.map((chain) => {
    let nothing = 0;
    const bestOfK = ks.map((k) => {
      let hits = 0;
      for (const g of groups) {
        const pick = choose(chain, g.candidates.slice(0, k));
        if (pick.sample === null) {
          if (k === n) nothing++;
          continue;
        }
        if (g.candidates.find((c) => c.sample === pick.sample)?.resolved) hits++;
      }
      const { k: resolved, ...rate } = wilson(hits, groups.length);
      return { k, resolved, ...rate };
    });
    return { chain: chain.spec, bestOfK, nothingSubmitted: nothing };
  });
  const dollars = ks.map((k) => {
    let sum = 0;
    for (const g of groups)
      for (const cost of g.costs.slice(0, k)) {
        if (cost === null) return null;
        sum += cost;
      }
    return groups.length === 0 ? null : sum / groups.length;
  });
  return { n, tasks: groups.length, passAtK: pass, selectors, dollarsPerSelected: dollars };
}
