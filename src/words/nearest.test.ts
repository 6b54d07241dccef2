import { describe, expect, it } from "vitest";
import { didYouMean, editDistance, nearestWord } from "./nearest.js";

describe("nearestWord", () => {
  it("measures edits and offers the closest known word within two, or a word a cut-off name starts", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(nearestWord("full-shel", ["full", "full-shell", "shell-only"])).toBe("full-shell");
    expect(nearestWord("antropic", ["anthropic", "openai"])).toBe("anthropic");
    expect(nearestWord("median", ["median-even", "month-rollover"])).toBe("median-even");
    expect(nearestWord("zzz", ["anthropic", "openai"])).toBeUndefined();
    expect(nearestWord("ab", ["abcdef"])).toBeUndefined();
  });

  it("phrases the suggestion for a message, or nothing", () => {
    expect(didYouMean("toolz", ["tools", "history"])).toBe(' — did you mean "tools"?');
    expect(didYouMean("qqqq", ["tools"])).toBe("");
  });
});
