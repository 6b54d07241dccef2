/** Per-arm numbers beside the resolve rate: what an attempt costs, in tokens, steps and dollars. */

export interface Spread {
  n: number;
  mean: number;
  median: number;
}

/** Mean and median of what was measured; NaN for both when nothing was. */
export function spread(values: readonly number[]): Spread {
  const n = values.length;
  if (n === 0) return { n, mean: Number.NaN, median: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(n / 2);
  const median =
    n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { n, mean: values.reduce((a, b) => a + b, 0) / n, median };
}

/**
 * Dollars per resolved attempt: the whole arm's spend over what it resolved (a failed attempt's cost
 * is part of the price of a success). Null when nothing was resolved, or any attempt's price is
 * unknown (a model with no price): a partial sum would look cheaper than it was.
 */
export function costPerResolved(
  attempts: ReadonlyArray<{ costUsd: number | null; resolved: boolean }>,
): number | null {
  const resolved = attempts.filter((a) => a.resolved).length;
  if (resolved === 0 || attempts.some((a) => a.costUsd === null)) return null;
  return attempts.reduce((sum, a) => sum + (a.costUsd ?? 0), 0) / resolved;
}
