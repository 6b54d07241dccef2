/**
 * Seeded draws from a Beta(a, b) distribution: how `acilab bon-curve --beta a,b` makes issues whose
 * per-candidate success probabilities pile up near 0 and 1, as seed 000's cell does. Seeded so that a
 * curve printed today is the curve printed tomorrow.
 */
import { seededRandom } from "./random.js";

/** Marsaglia & Tsang (2000) for shape ≥ 1; shape < 1 by the boost Gamma(a) = Gamma(a + 1)·U^(1/a). */
function gamma(shape: number, u: () => number): number {
  if (shape < 1) return gamma(shape + 1, u) * (1 - u()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const w = 1 - u();
    if (Math.log(w) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** `count` draws from Beta(a, b), a and b > 0. */
export function betaSample(a: number, b: number, count: number, seed = 0): number[] {
  if (!(a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b)))
    throw new RangeError(`beta: both shapes must be numbers > 0, got a=${a}, b=${b}`);
  const u = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const x = gamma(a, u);
    const y = gamma(b, u);
    return x + y === 0 ? 0.5 : x / (x + y);
  });
}
