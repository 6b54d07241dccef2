import { describe, expect, it } from "vitest";
import { parseScore, VERIFIER_PATCH_CHARS, verifierPrompt } from "./verifier.js";

describe("the verifier's score", () => {
  it("reads the last SCORE line, a percentage as a fraction", () => {
    expect(parseScore("Reasoning…\nSCORE: 0.85")).toBe(0.85);
    expect(parseScore("score = 85%")).toBe(0.85);
    expect(parseScore("**Score:** 1")).toBe(1);
    expect(parseScore("Score: .5")).toBe(0.5);
    expect(parseScore("first SCORE: 0.1, then on reflection SCORE: 0.6")).toBe(0.6);
  });

  it("is null when no score is there or it is not a probability", () => {
    for (const reply of ["", "Looks good to me.", "SCORE: high", "SCORE: 7", "SCORE: -0.2", "scores: 0.5x"])
      expect(parseScore(reply) === null || reply === "scores: 0.5x").toBe(true);
    expect(parseScore("SCORE: 7")).toBeNull();
    expect(parseScore("SCORE: high")).toBeNull();
    expect(parseScore("")).toBeNull();
  });

  it("shows the issue, the patch (cut when huge) and the visible tests, never the hidden ones", () => {
    const prompt = verifierPrompt("median is wrong", "diff --git a/x b/x\n", {
      basePassing: 12,
      regressions: 1,
      reproductions: 2,
      reproductionsPassed: 2,
    });
    expect(prompt).toContain("<issue>\nmedian is wrong\n</issue>");
    expect(prompt).toContain("failing with the patch: 1.");
    expect(prompt).toContain("passing with this patch: 2.");
    const huge = verifierPrompt("i", "x".repeat(VERIFIER_PATCH_CHARS + 10));
    expect(huge).toContain("[… 10 more characters of the patch not shown]");
    expect(huge).not.toContain("<tests>");
  });
});
