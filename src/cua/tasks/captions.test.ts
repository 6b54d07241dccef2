import { describe, expect, it } from "vitest";
import { frameCaptions } from "./captions.js";

describe("frameCaptions", () => {
  it("pairs executed actions with the controls they hit, skipping ones the environment never ran", () => {
    const frames = [
      { step: 0, path: "f0", action: "start", delta: undefined, stalls: 0 },
      {
        step: 1,
        path: "f1",
        action: "click_element [8]",
        delta: 0,
        stalls: 1,
        note: 'blocked click on button "Delete account" (matched "delete")',
      },
      { step: 2, path: "f2", action: "invalid click", delta: 0, stalls: 2 },
      { step: 3, path: "f3", action: "key ArrowDown", delta: 0.1, stalls: 0 },
      { step: 4, path: "f4", action: "click_element [7]", delta: 0.1, stalls: 0 },
    ];
    const captions = frameCaptions(frames, ["", 'button "Export my data"']);
    expect([...captions.values()]).toEqual([
      "start",
      'click_element [8]: gate refused button "Delete account"',
      "invalid click",
      "key ArrowDown",
      'click_element [7] → button "Export my data"',
    ]);
  });
});
