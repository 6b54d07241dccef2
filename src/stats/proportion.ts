/**
 * A resolve rate and how sure we are of it: k of n with a Wilson score interval. Wilson rather than
 * the textbook normal interval because resolve rates sit near 0 % and 100 %, where the normal
 * interval escapes [0, 1] and claims certainty it does not have (9/9 would be "100 % ± 0").
 */

/** z for a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;

export interface Proportion {
  k: number;
  n: number;
  /** k / n; NaN when n = 0. */
  rate: number;
  /** The Wilson score interval [low, high]; [0, 1] when n = 0 (nothing is known). */
  low: number;
  high: number;
}

export function wilson(k: number, n: number, z = Z_95): Proportion {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n)
    throw new RangeError(`wilson: need integers 0 ≤ k ≤ n, got k=${k}, n=${n}`);
  if (n === 0) return { k, n, rate: Number.NaN, low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Clamp float noise at the edges: k = 0 gives exactly 0, k = n exactly 1.
  return { k, n, rate: p, low: k === 0 ? 0 : centre - half, high: k === n ? 1 : centre + half };
}

/** "81/84 (96.4 %, 95 % CI 90.0–98.8)". */
export function formatProportion(p: Proportion): string {
  if (p.n === 0) return "0/0 (no attempts)";
  const pct = (x: number) => (100 * x).toFixed(1);
  return `${p.k}/${p.n} (${pct(p.rate)} %, 95 % CI ${pct(p.low)}–${pct(p.high)})`;
}
