import { describe, expect, it } from "vitest";
import { canonicalJson } from "../run/index.js";
import { duplicateNames, legacyArmHash, resolveArms } from "./arms.js";

describe("arms", () => {
  it("overrides base field by field, replacing lists rather than appending to them", () => {
    const [arm] = resolveArms({ policy: "auto", allow_net: ["pypi.org"], max_steps: 30 }, [
      { name: "a", allow_net: ["example.com"], tools: "full" },
    ]);
    expect(arm?.fields).toEqual({ policy: "auto", tools: "full", max_steps: 30, allow_net: ["example.com"] });
  });

  it("hashes the definition, not the order it was written in", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[2,{"e":0,"f":1}]},"b":1}',
    );
    const one = resolveArms({ tools: "full" }, [{ name: "a", max_steps: 5 }])[0];
    const two = resolveArms({}, [{ max_steps: 5, tools: "full", name: "b" }])[0];
    expect(one?.hash).toBe(two?.hash);
    expect(one?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveArms({}, [{ name: "c", max_steps: 6, tools: "full" }])[0]?.hash).not.toBe(one?.hash);
    // The RunSpec's hash: writing out a default is the same arm; older stores hashed the fields alone.
    expect(resolveArms({}, [{ name: "d", max_steps: 5, tools: "full", history: "all" }])[0]?.hash).toBe(
      one?.hash,
    );
    expect(one?.legacyHash).toBe(legacyArmHash({ max_steps: 5, tools: "full" }));
  });

  it("names the second of two arms with one name and where the first was", () => {
    expect(duplicateNames([{ name: "a" }, { name: "b" }, { name: "a" }])).toEqual([
      {
        path: ["arms", 2, "name"],
        message: 'arm "a" is defined twice (first as arms[0]) — give each arm its own name',
      },
    ]);
  });
});
