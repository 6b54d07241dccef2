import { describe, expect, it } from "vitest";
import { describeAction } from "./actions.js";

describe("describeAction", () => {
  it("writes one short line per action", () => {
    expect(describeAction({ kind: "click", x: 728, y: 410 })).toBe("click (728, 410)");
    expect(describeAction({ kind: "click", x: 1, y: 2, button: "right" })).toBe("click (1, 2) right");
    expect(describeAction({ kind: "type", text: "x".repeat(60) })).toMatch(/^type "x{39}…"$/);
    expect(describeAction({ kind: "key", keys: "shift+Tab" })).toBe("key shift+Tab");
    expect(describeAction({ kind: "click_element", index: 3 })).toBe("click_element [3]");
  });
});
