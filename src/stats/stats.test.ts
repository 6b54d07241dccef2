import { describe, expect, it } from "vitest";
import { exactMcNemar, formatP, formatProportion, pairedTable, wilson } from "./index.js";

const pct = (x: number) => Number((100 * x).toFixed(1));

describe("wilson", () => {
  it("reproduces published intervals: 81/84 → 96.4 % (90.0–98.8), 51/56 → 91.1 % (80.7–96.1)", () => {
    const a = wilson(81, 84);
    expect([pct(a.rate), pct(a.low), pct(a.high)]).toEqual([96.4, 90.0, 98.8]);
    const b = wilson(51, 56);
    expect([pct(b.rate), pct(b.low), pct(b.high)]).toEqual([91.1, 80.7, 96.1]);
    expect(formatProportion(a)).toBe("81/84 (96.4 %, 95 % CI 90.0–98.8)");
  });

  it("stays inside [0, 1] at the edges, where the normal interval does not", () => {
    // Worked by hand: z² = 3.8415; 0/10 → high = z²/n / (1 + z²/n) = 0.38415 / 1.38415 = 0.27753.
    const none = wilson(0, 10);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.27753, 5);
    const all = wilson(10, 10);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(1 - 0.27753, 5);
    expect(wilson(0, 0)).toMatchObject({ low: 0, high: 1 });
    expect(Number.isNaN(wilson(0, 0).rate)).toBe(true);
    expect(formatProportion(wilson(0, 0))).toBe("0/0 (no attempts)");
  });

  it("refuses counts that cannot be", () => {
    expect(() => wilson(5, 4)).toThrow(/0 ≤ k ≤ n/);
    expect(() => wilson(1.5, 4)).toThrow(RangeError);
    expect(() => wilson(-1, 4)).toThrow(RangeError);
  });
});

describe("exact McNemar", () => {
  it("reproduces published p-values from discordant pairs", () => {
    // Lost 18, won 1: 2 · (C(19,0) + C(19,1)) / 2^19 = 40 / 524288.
    expect(exactMcNemar({ onlyA: 1, onlyB: 18 }).p).toBeCloseTo(40 / 524288, 12);
    expect(formatP(exactMcNemar({ onlyA: 1, onlyB: 18 }).p)).toBe("p < 0.0001");
    // Lost 11, won 0: 2 / 2^11 ≈ 0.001.
    expect(exactMcNemar({ onlyA: 0, onlyB: 11 }).p).toBeCloseTo(2 / 2048, 12);
    // Lost 4, won 0: 2 / 16 = 0.125.
    expect(exactMcNemar({ onlyA: 0, onlyB: 4 }).p).toBe(0.125);
    // Won 5, lost 2: 2 · (1 + 7 + 21) / 128 = 0.453.
    expect(exactMcNemar({ onlyA: 5, onlyB: 2 }).p).toBeCloseTo(58 / 128, 12);
    expect(formatP(58 / 128)).toBe("p = 0.45");
  });

  it("is symmetric, 1 without discordant pairs, and says when no result could be significant", () => {
    expect(exactMcNemar({ onlyA: 3, onlyB: 9 }).p).toBe(exactMcNemar({ onlyA: 9, onlyB: 3 }).p);
    expect(exactMcNemar({ onlyA: 0, onlyB: 0 })).toEqual({ discordant: 0, p: 1, minimumP: 1 });
    expect(exactMcNemar({ onlyA: 3, onlyB: 3 }).p).toBe(1);
    // Four discordant pairs can at best give p = 0.125: too few for any verdict at 0.05.
    expect(exactMcNemar({ onlyA: 0, onlyB: 4 }).minimumP).toBe(0.125);
    expect(exactMcNemar({ onlyA: 0, onlyB: 6 }).minimumP).toBeCloseTo(0.03125, 12);
  });

  it("stays finite and exact enough for thousands of pairs", () => {
    const { p } = exactMcNemar({ onlyA: 1000, onlyB: 1000 });
    expect(p).toBeCloseTo(1, 6);
    expect(exactMcNemar({ onlyA: 900, onlyB: 1100 }).p).toBeLessThan(1e-5);
  });
});

describe("pairedTable", () => {
  it("counts both / only A / only B / neither over matched pairs", () => {
    const pairs: Array<[boolean, boolean]> = [
      [true, true],
      [true, false],
      [true, false],
      [false, true],
      [false, false],
    ];
    expect(pairedTable(pairs)).toEqual({ both: 1, onlyA: 2, onlyB: 1, neither: 1 });
  });
});
