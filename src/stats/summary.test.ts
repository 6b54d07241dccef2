import { describe, expect, it } from "vitest";
import { costPerResolved, spread } from "./index.js";

describe("spread", () => {
  it("gives the mean and the median (the middle pair's mean for an even count)", () => {
    expect(spread([4, 1, 3])).toEqual({ n: 3, mean: 8 / 3, median: 3 });
    expect(spread([5, 1, 2, 10])).toEqual({ n: 4, mean: 4.5, median: 3.5 });
    const empty = spread([]);
    expect(empty.n).toBe(0);
    expect(Number.isNaN(empty.mean) && Number.isNaN(empty.median)).toBe(true);
  });
});

describe("costPerResolved", () => {
  it("charges failed attempts to the successes", () => {
    const attempts = [
      { costUsd: 0.02, resolved: true },
      { costUsd: 0.03, resolved: false },
      { costUsd: 0.01, resolved: true },
    ];
    expect(costPerResolved(attempts)).toBeCloseTo(0.03, 12);
  });

  it("is null when nothing resolved or a price is unknown", () => {
    expect(costPerResolved([{ costUsd: 0.1, resolved: false }])).toBeNull();
    expect(
      costPerResolved([
        { costUsd: 0.1, resolved: true },
        { costUsd: null, resolved: true },
      ]),
    ).toBeNull();
    expect(costPerResolved([{ costUsd: 0, resolved: true }])).toBe(0);
  });
});
