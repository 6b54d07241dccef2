/**
 * Two arms on the same (task, repeat) pairs: which pairs only one of them resolved, and whether that
 * imbalance is more than chance. The exact McNemar test is a two-sided binomial test on the
 * discordant pairs alone — pairs both arms resolved, or neither did, say nothing about which is
 * better — exact because these counts are small (tens), where the chi-squared approximation is not.
 */

export interface PairedTable {
  both: number;
  /** Resolved by A (the arm) and not by B (the baseline). */
  onlyA: number;
  onlyB: number;
  neither: number;
}

/** Count the four cells over matched pairs; `pairs` holds [a resolved, b resolved]. */
export function pairedTable(pairs: Iterable<readonly [boolean, boolean]>): PairedTable {
  const t: PairedTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  for (const [a, b] of pairs) {
    if (a && b) t.both++;
    else if (a) t.onlyA++;
    else if (b) t.onlyB++;
    else t.neither++;
  }
  return t;
}

export interface McNemar {
  discordant: number;
  /** Two-sided exact p-value; 1 when there are no discordant pairs. */
  p: number;
  /**
   * The smallest p any result could reach with this many discordant pairs (all on one side). When it
   * is above 0.05 no outcome could be significant: the comparison needs more pairs, not a verdict.
   */
  minimumP: number;
}

/** Exact two-sided McNemar: 2 · P(X ≤ min(b, c)) for X ~ Binomial(b + c, ½), capped at 1. */
export function exactMcNemar(table: Pick<PairedTable, "onlyA" | "onlyB">): McNemar {
  const { onlyA: b, onlyB: c } = table;
  const n = b + c;
  if (n === 0) return { discordant: 0, p: 1, minimumP: 1 };
  return {
    discordant: n,
    p: Math.min(1, 2 * binomialLowerTail(Math.min(b, c), n)),
    minimumP: Math.min(1, 2 * 0.5 ** n),
  };
}

/** P(X ≤ k) for X ~ Binomial(n, ½), summed in log space so n in the thousands stays exact enough. */
function binomialLowerTail(k: number, n: number): number {
  let logTerm = -n * Math.LN2; // log C(n, 0) · 2^-n
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i);
    sum += Math.exp(logTerm);
  }
  return sum;
}

/** "p = 0.0001" with the precision the value deserves; "p < 0.0001" below it. */
export function formatP(p: number): string {
  if (p < 0.0001) return "p < 0.0001";
  if (p < 0.001) return `p = ${p.toFixed(4)}`;
  if (p < 0.01) return `p = ${p.toFixed(3)}`;
  return `p = ${p.toFixed(2)}`;
}
