import { describe, expect, it } from "vitest";
import { samplingCurves } from "./curves.js";
import { type Candidate, parseChain } from "./selectors.js";

/** A task's candidates from their verdicts and normalised keys. */
const group = (task: string, cands: [boolean, string][], cost = 0.01) => ({
  task,
  candidates: cands.map(
    ([resolved, key], i): Candidate => ({ sample: i + 1, hasPatch: true, resolved, normalised: key }),
  ),
  costs: cands.map(() => cost),
});

describe("samplingCurves", () => {
  const groups = [
    // The right fix is the majority, but not the first sample.
    group("a", [
      [false, "x"],
      [true, "r"],
      [true, "r"],
      [false, "y"],
    ]),
    // Never solved.
    group("b", [
      [false, "x"],
      [false, "x"],
      [false, "y"],
      [false, "z"],
    ]),
    // Solved once, outvoted.
    group("c", [
      [false, "w"],
      [false, "w"],
      [true, "r"],
      [false, "w"],
    ]),
  ];
  const curves = samplingCurves(groups, [parseChain("oracle"), parseChain("vote")]);

  it("estimates pass@k without bias and reads best-of-k off the first k candidates", () => {
    expect(curves.n).toBe(4);
    expect(curves.passAtK[0]).toBeCloseTo((2 / 4 + 0 + 1 / 4) / 3, 12);
    expect(curves.passAtK[3]).toBeCloseTo(2 / 3, 12);
    const [oracle, vote] = curves.selectors;
    // The oracle's best-of-k at k = n is coverage; at k = 1 it is the first sample's verdict.
    expect(oracle?.bestOfK.map((p) => p.resolved)).toEqual([0, 1, 2, 2]);
    // Vote: k = 1 takes sample 1 (a: wrong); k = 3 sees r twice in a; c stays outvoted.
    expect(vote?.bestOfK.map((p) => p.resolved)).toEqual([0, 0, 1, 1]);
    expect(vote?.bestOfK[3]?.n).toBe(3);
    // Each point is named for what it is: k is best-of-k's k, resolved the tasks it resolved.
    expect(vote?.bestOfK.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    expect(vote?.bestOfK[3]).toMatchObject({ k: 4, resolved: 1, n: 3, rate: 1 / 3 });
    vote?.bestOfK.forEach((p, i) => {
      expect(p.rate).toBeLessThanOrEqual((oracle?.bestOfK[i]?.rate as number) + 1e-12);
    });
    expect(curves.dollarsPerSelected).toEqual([0.01, 0.02, 0.03, 0.04].map((d) => expect.closeTo(d, 12)));
  });

  it("says when a price is unknown rather than summing part of it", () => {
    const unknown = { ...group("d", [[true, "r"]]), costs: [null] };
    expect(samplingCurves([unknown], [parseChain("vote")]).dollarsPerSelected).toEqual([null]);
  });
});
