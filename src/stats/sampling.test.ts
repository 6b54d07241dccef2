import { describe, expect, it } from "vitest";
import { betaSample } from "./beta.js";
import { normalCdf } from "./normal.js";
import { seededRandom } from "./random.js";
import { BON_TOLERANCE, bonCurve, passAtK } from "./sampling.js";

/** Box–Muller over the seeded PRNG: a Monte Carlo a failure can replay. */
function gaussian(u: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

const binomial = (n: number, k: number): number => {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
};

describe("passAtK", () => {
  it("is 1 − C(n−c, k)/C(n, k)", () => {
    for (const [n, c, k] of [
      [10, 3, 1],
      [10, 3, 4],
      [8, 0, 3],
      [8, 8, 1],
      [20, 5, 16],
    ] as const)
      expect(passAtK(n, c, k)).toBeCloseTo(1 - binomial(n - c, k) / binomial(n, k), 12);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 15);
    expect(passAtK(10, 3, 8)).toBe(1); // any 8 of 10 include one of the 3
  });

  it("does not overflow where the binomials would", () => {
    const value = passAtK(400, 2, 200);
    expect(value).toBeCloseTo(1 - (200 * 199) / (400 * 399), 12);
  });

  it("refuses counts that cannot be", () => {
    expect(() => passAtK(5, 6, 1)).toThrow(/0 ≤ c ≤ n/);
    expect(() => passAtK(5, 2, 0)).toThrow(/1 ≤ k ≤ n/);
    expect(() => passAtK(5, 2, 6)).toThrow(/1 ≤ k ≤ n/);
  });
});

describe("normalCdf", () => {
  it("matches tabulated values across the range", () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 15);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 15);
    expect(normalCdf(3)).toBeCloseTo(0.9986501019683699, 15);
    expect(Math.abs(normalCdf(-7.5) - 3.190891672910919e-14)).toBeLessThan(1e-15); // absolute, as promised
    expect(normalCdf(-8.5) / 9.47953482220332e-18).toBeCloseTo(1, 9);
    expect(normalCdf(40)).toBe(1);
  });
});

/** The same integral by a 60,000-point trapezoid rule (spectrally accurate for this integrand). */
function bruteBon(p: number, n: number, d: number): number {
  const h = 24 / 60_000;
  let sum = 0;
  for (let t = -12; t <= 12; t += h) {
    const g = p * normalCdf(t) + (1 - p) * normalCdf(t + d);
    sum += Math.exp(-0.5 * t * t) * g ** (n - 1);
  }
  return (n * p * sum * h) / Math.sqrt(2 * Math.PI);
}

describe("bonCurve", () => {
  const P = [0, 0.02, 0.1, 0.35, 0.5, 0.8, 0.97, 1];
  const mean = P.reduce((a, b) => a + b) / P.length;

  it("agrees with an independent fine quadrature to its stated tolerance", () => {
    for (const sigma of [0.05, 0.5, 1, 3]) {
      const { bon } = bonCurve([0.3], 16, 1, sigma);
      for (const n of [1, 2, 7, 16])
        expect(Math.abs((bon[n - 1] as number) - bruteBon(0.3, n, 1 / sigma))).toBeLessThan(BON_TOLERANCE);
    }
  });

  it("agrees with a Monte Carlo run within its error", () => {
    const u = seededRandom(7);
    const z = gaussian(u);
    const p = [0.15, 0.5, 0.85];
    const nMax = 6;
    const trials = 40_000;
    const { bon } = bonCurve(p, nMax, 1, 1);
    for (let n = 1; n <= nMax; n++) {
      let hits = 0;
      for (const pi of p)
        for (let t = 0; t < trials; t++) {
          let best = -Infinity;
          let bestCorrect = false;
          for (let c = 0; c < n; c++) {
            const correct = u() < pi;
            const score = (correct ? 1 : 0) + z();
            if (score > best) [best, bestCorrect] = [score, correct];
          }
          if (bestCorrect) hits++;
        }
      const estimate = hits / (trials * p.length);
      const se = Math.sqrt((estimate * (1 - estimate)) / (trials * p.length));
      expect(Math.abs(estimate - (bon[n - 1] as number))).toBeLessThan(4 * se);
    }
  });

  it("starts at mean p, never exceeds coverage, and has the limits of a perfect and a useless verifier", () => {
    for (const sigma of [0.3, 1, 3]) {
      const { bon, cov } = bonCurve(P, 64, 1, sigma);
      expect(bon[0]).toBeCloseTo(mean, 12);
      expect(cov[0]).toBeCloseTo(mean, 12);
      bon.forEach((b, i) => {
        expect(b).toBeLessThanOrEqual((cov[i] as number) + 1e-12);
      });
    }
    const exact = bonCurve(P, 64, 1, 0);
    expect(exact.bon).toEqual(exact.cov);
    const sharp = bonCurve(P, 64, 1, 1e-4);
    sharp.bon.forEach((b, i) => {
      expect(Math.abs(b - (sharp.cov[i] as number))).toBeLessThan(BON_TOLERANCE);
    });
    const tiny = bonCurve(P, 64, 1, 1e-300); // margin/sigma = 1e300: no overflow, no NaN
    tiny.bon.forEach((b, i) => {
      expect(Math.abs(b - (exact.cov[i] as number))).toBeLessThan(1e-12);
    });
    const noise = bonCurve(P, 64, 1, 1e6);
    noise.bon.forEach((b) => {
      expect(Math.abs(b - mean)).toBeLessThan(1e-6);
    });
    const blind = bonCurve(P, 64, 0, 1); // no margin: the choice is a coin
    blind.bon.forEach((b) => {
      expect(Math.abs(b - mean)).toBeLessThan(BON_TOLERANCE);
    });
  });

  it("reproduces seed 000's figures: issues piled near 0 and 1, margin 1", () => {
    // Beta(0.3, 0.45) has mean 0.4 and pass@32 of 0.78: the seed's cell's 0.399 and 0.786.
    const p = betaSample(0.3, 0.45, 2000, 1);
    const { cov } = bonCurve(p, 32, 1, 0);
    expect(Math.abs((cov[0] as number) - 0.399)).toBeLessThan(0.02);
    expect(Math.abs((cov[31] as number) - 0.786)).toBeLessThan(0.02);
    // The seed: sigma 0.5 keeps much of the gain (0.721), sigma 1 about half (0.607), sigma 3 little (0.475).
    for (const [sigma, seed] of [
      [0.5, 0.721],
      [1, 0.607],
      [3, 0.475],
    ] as const)
      expect(Math.abs((bonCurve(p, 32, 1, sigma).bon[31] as number) - seed)).toBeLessThan(0.02);
  });

  it("refuses what is not a probability, a negative sigma or an absurd n", () => {
    expect(() => bonCurve([0.5, 1.2], 4, 1, 1)).toThrow(/p\[1\] = 1.2 is not a probability/);
    expect(() => bonCurve([Number.NaN], 4, 1, 1)).toThrow(/p\[0\]/);
    expect(() => bonCurve([0.5], 4, 1, -1)).toThrow(/sigma must be ≥ 0/);
    expect(() => bonCurve([0.5], 0, 1, 1)).toThrow(/n must be a whole number/);
    expect(() => bonCurve([0.5], 1e9, 1, 1)).toThrow(/n must be a whole number/);
    expect(() => bonCurve([], 4, 1, 1)).toThrow(/p is empty/);
  });
});
