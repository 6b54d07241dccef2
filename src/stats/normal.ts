/**
 * The standard normal distribution function Φ to ~1e−16 absolute error, which is what bon_curve's
 * powers of Φ need (an absolute error ε in Φ becomes a relative (n − 1)·ε in Φ^(n−1)).
 */

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
/** Past this |x| the series needs hundreds of terms; the asymptotic tail is already exact to 1e−17. */
const SERIES_LIMIT = 8;

/** Φ(x) = P(Z ≤ x) for a standard normal Z. */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x >= SERIES_LIMIT) return 1 - upperTail(x);
  if (x <= -SERIES_LIMIT) return upperTail(-x);
  // Marsaglia (2004): Φ(x) = 1/2 + φ(x)·(x + x³/3 + x⁵/(3·5) + …), every term of one sign.
  let term = x;
  let sum = x;
  const x2 = x * x;
  for (let k = 3; term !== 0 && Math.abs(term) > 1e-17 * Math.abs(sum); k += 2) {
    term *= x2 / k;
    sum += term;
  }
  return 0.5 + sum * Math.exp(-0.5 * x2) * INV_SQRT_2PI;
}

/**
 * P(Z > x) for x ≥ SERIES_LIMIT: φ(x)/x · (1 − 1/x² + 3/x⁴ − 15/x⁶ + …), an asymptotic series
 * summed until its terms stop shrinking (at x = 8 that is ~30 terms and a relative error ~1e−14).
 */
function upperTail(x: number): number {
  const inv2 = 1 / (x * x);
  let term = 1;
  let sum = 1;
  for (let k = 1; k < 200; k++) {
    const next = -term * (2 * k - 1) * inv2;
    if (Math.abs(next) >= Math.abs(term) || Math.abs(next) < 1e-17) break;
    term = next;
    sum += term;
  }
  return (Math.exp(-0.5 * x * x) * INV_SQRT_2PI * sum) / x;
}
