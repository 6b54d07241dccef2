import { describe, expect, it } from "vitest";
import { fixedLiterals, patternLiterals } from "./literals.js";

describe("patternLiterals", () => {
  it("recognises a pattern that is one literal, with only escapes rg 13 accepts", () => {
    expect(patternLiterals("total")).toEqual({ kind: "pure", literal: "total" });
    expect(patternLiterals("FIXME\\(acilab")).toEqual({ kind: "pure", literal: "FIXME(acilab" });
    expect(patternLiterals("déjà vu")).toEqual({ kind: "pure", literal: "déjà vu" });
    // rg 13 rejects `\/`: it must reach rg, which reports the error.
    expect(patternLiterals("a\\/b")).toEqual({ kind: "required", anyOf: ["a"] });
  });

  it("finds a literal every match must contain, or none", () => {
    expect(patternLiterals("def \\w+_handler")).toEqual({ kind: "required", anyOf: ["def "] });
    expect(patternLiterals("TODO|FIXME")).toEqual({ kind: "required", anyOf: ["TODO", "FIXME"] });
    expect(patternLiterals("gam+a")).toEqual({ kind: "required", anyOf: ["gam"] });
    expect(patternLiterals("colou?r")).toEqual({ kind: "required", anyOf: ["colo"] });
    expect(patternLiterals("ab{0,2}c")).toEqual({ kind: "required", anyOf: ["a"] });
    expect(patternLiterals("^import os$")).toEqual({ kind: "required", anyOf: ["import os"] });
    expect(patternLiterals("foo(bar|baz)")).toEqual({ kind: "required", anyOf: ["foo"] });
    expect(patternLiterals("x[|]y|z")).toEqual({ kind: "required", anyOf: ["x", "z"] });
    expect(patternLiterals("[]|]abc")).toEqual({ kind: "none" });
    expect(patternLiterals("\\w+|foo")).toEqual({ kind: "none" });
    expect(patternLiterals(".*")).toEqual({ kind: "none" });
    expect(patternLiterals("(?i)abc")).toEqual({ kind: "none" });
    expect(patternLiterals("a(b")).toEqual({ kind: "none" });
    expect(patternLiterals("bad\ud800")).toEqual({ kind: "none" });
  });

  it("takes a fixed-strings term as it is", () => {
    expect(fixedLiterals("a.b(c) [x]")).toEqual({ kind: "pure", literal: "a.b(c) [x]" });
  });
});
