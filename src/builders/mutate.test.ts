import { describe, expect, it } from "vitest";
import { applyMutation, mutationSites } from "./mutate.js";
import { seededRandom } from "./synth.js";

const PY = `LIMIT = 3


def f(a, b=1, flag=True):
    if a < b and not a:
        return g(a, b) + 1
    raise ValueError("x") from None
`;

describe("mutationSites", () => {
  it("finds every kind of bug inside Python functions, none at module level", async () => {
    const sites = await mutationSites("python", "m.py", PY);
    expect(new Set(sites.map((s) => s.kind))).toEqual(
      new Set([
        "wrong default",
        "dropped condition",
        "comparison flip",
        "arithmetic swap",
        "swapped arguments",
        "off-by-one",
        "removed from None",
      ]),
    );
    expect(sites.some((s) => s.line === 1)).toBe(false);
    const fromNone = sites.find((s) => s.kind === "removed from None");
    expect(applyMutation(PY, fromNone as (typeof sites)[number])).toContain('raise ValueError("x")\n');
  });

  it("leaves TypeScript types alone", async () => {
    const source = "function f(a: Array<number>, n = 2): 1 | 2 { return a.length < n ? 1 : 2; }";
    const sites = await mutationSites("typescript", "m.ts", source);
    const body = source.indexOf("{");
    // The literal types `1 | 2` and the generic's `<` are not sites; the body's numbers are.
    expect(sites.filter((s) => s.start < body).map((s) => `${s.kind}:${s.before}`)).toEqual([
      "wrong default:2",
    ]);
    expect(sites.filter((s) => s.start > body).map((s) => `${s.kind}:${s.before}`)).toEqual([
      "comparison flip:<",
      "off-by-one:1",
      "off-by-one:2",
    ]);
  });
});

describe("seededRandom", () => {
  it("gives the same sequence for the same seed and another for another seed", () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });
});
