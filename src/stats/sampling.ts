/**
 * Many candidates per task: coverage (pass@k, some candidate is right) against selection (best-of-n,
 * the one submitted is right). pass@k is estimated from what was measured without bias; bon_curve is
 * the exact curve of seed 000's verifier model, by quadrature rather than by sampling.
 */
import { normalCdf } from "./normal.js";

/**
 * The unbiased estimator of pass@k from n candidates of which c passed: the chance that k of them,
 * drawn without replacement, include a passing one, 1 − C(n−c, k)/C(n, k). Computed as a product so
 * it neither overflows (C(200, 100)) nor loses the small differences near 1.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (![n, c, k].every(Number.isInteger) || n < 1 || c < 0 || c > n || k < 1 || k > n)
    throw new RangeError(`passAtK: need whole numbers 0 ≤ c ≤ n and 1 ≤ k ≤ n, got n=${n}, c=${c}, k=${k}`);
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

export interface BonCurve {
  /** bon[n − 1]: mean over issues of P(the highest-scoring of n candidates is correct). */
  bon: number[];
  /** cov[n − 1]: mean over issues of pass@n = 1 − (1 − p)^n. */
  cov: number[];
}

/**
 * Quadrature for bon_curve. The integrand φ(t)·G(t)^(n−1) has features no narrower than ~0.3 in t
 * (G's step at t ≈ −margin/sigma is one standard normal wide; G^(n−1)'s rise near the top sharpens
 * only logarithmically in n), so 10-point Gauss–Legendre panels 0.5 wide are exact to ~1e−12 there (the tests hold it to a
 * 60,000-point trapezoid rule).
 */
const HALF_WIDTH = 8.5; // P(|Z| > 8.5) < 2e−17: even times n = 10,000 the tails add < 1e−12
const PANEL = 0.5;
/** The largest n bon_curve computes: past this pass@n of every p > 0.002 is already 1 to 1e−9. */
export const BON_MAX_N = 10_000;
/** What the tests check the quadrature against (Monte Carlo, a finer grid, the closed forms). */
export const BON_TOLERANCE = 1e-9;

/**
 * The exact best-of-n and coverage curves for issues whose candidates are correct with probability
 * p[i]; a correct candidate scores N(margin, sigma²), a wrong one N(0, sigma²), independently, and
 * best-of-n submits the highest score.
 *
 * For one issue, with t the submitted candidate's standardised score and d = margin/sigma,
 *   bon_n = n·p ∫ φ(t) · (p·Φ(t) + (1 − p)·Φ(t + d))^(n−1) dt
 * (candidate 1 is correct with score t and every other scores lower, times n for the symmetric
 * choice of which candidate that is). sigma = 0 means any correct candidate outscores every wrong
 * one: bon = cov exactly. As sigma → 0, d grows and the integrand's step moves to t ≈ −d where φ is
 * nil, so the formula tends to cov smoothly with no special case; sigma = ∞ (d = 0) gives p.
 */
export function bonCurve(p: readonly number[], nMax: number, margin: number, sigma: number): BonCurve {
  if (p.length === 0) throw new RangeError("bon_curve: p is empty — give at least one issue's probability");
  p.forEach((pi, i) => {
    if (!(typeof pi === "number" && pi >= 0 && pi <= 1))
      throw new RangeError(`bon_curve: p[${i}] = ${pi} is not a probability in [0, 1]`);
  });
  if (!Number.isInteger(nMax) || nMax < 1 || nMax > BON_MAX_N)
    throw new RangeError(`bon_curve: n must be a whole number from 1 to ${BON_MAX_N}, got ${nMax}`);
  if (!Number.isFinite(margin))
    throw new RangeError(`bon_curve: margin must be a finite number, got ${margin}`);
  if (!(sigma >= 0)) throw new RangeError(`bon_curve: sigma must be ≥ 0, got ${sigma}`);

  const cov = new Array<number>(nMax).fill(0);
  const bon = new Array<number>(nMax).fill(0);
  for (const pi of p) {
    let miss = 1;
    for (let n = 1; n <= nMax; n++) {
      miss *= 1 - pi;
      cov[n - 1] = (cov[n - 1] as number) + (1 - miss);
    }
  }
  if (sigma === 0 || !Number.isFinite(margin / sigma)) {
    // A noiseless verifier (or an infinite margin): a correct candidate always wins when there is one;
    // with margin < 0 a wrong one always does, and a correct one is submitted only when all are.
    if (margin > 0) bon.splice(0, nMax, ...cov);
    else
      for (const pi of p)
        for (let n = 1; n <= nMax; n++) bon[n - 1] = (bon[n - 1] as number) + (margin < 0 ? pi ** n : pi);
  } else {
    const d = margin / sigma;
    const { nodes, weights } = grid();
    const wPhi = nodes.map((t, j) => (weights[j] as number) * Math.exp(-0.5 * t * t) * INV_SQRT_2PI);
    const cdfT = nodes.map(normalCdf);
    const cdfTd = nodes.map((t) => normalCdf(t + d));
    const power = new Float64Array(nodes.length);
    for (const pi of p) {
      if (pi === 0) continue;
      const g = nodes.map((_, j) => pi * (cdfT[j] as number) + (1 - pi) * (cdfTd[j] as number));
      power.fill(1);
      for (let n = 1; n <= nMax; n++) {
        let integral = 0;
        for (let j = 0; j < nodes.length; j++) {
          integral += (wPhi[j] as number) * (power[j] as number);
          power[j] = (power[j] as number) * (g[j] as number);
        }
        bon[n - 1] = (bon[n - 1] as number) + Math.min(1, n * pi * integral);
      }
    }
  }
  return { bon: bon.map((b) => b / p.length), cov: cov.map((c) => c / p.length) };
}

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** 10-point Gauss–Legendre nodes and weights on [−1, 1] (Abramowitz & Stegun 25.4.30). */
const GL_X = [
  0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717,
];
const GL_W = [
  0.2955242247147529, 0.2692667193099963, 0.219086362515982, 0.1494513491505806, 0.0666713443086881,
];

let cached: { nodes: number[]; weights: number[] } | undefined;

/** The composite rule on [−HALF_WIDTH, HALF_WIDTH], built once. */
function grid(): { nodes: number[]; weights: number[] } {
  if (cached) return cached;
  const nodes: number[] = [];
  const weights: number[] = [];
  const half = PANEL / 2;
  for (let a = -HALF_WIDTH; a < HALF_WIDTH - 1e-12; a += PANEL) {
    const mid = a + half;
    GL_X.forEach((x, i) => {
      for (const sign of [-1, 1]) {
        nodes.push(mid + sign * half * x);
        weights.push(half * (GL_W[i] as number));
      }
    });
  }
  cached = { nodes, weights };
  return cached;
}
