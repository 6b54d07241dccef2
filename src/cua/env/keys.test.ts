import { describe, expect, it } from "vitest";
import { toPlaywrightKeys, toXdotoolKeys } from "./keys.js";
import { xdotoolCommands } from "./x11-input.js";

describe("key combos", () => {
  it("speaks Playwright's and xdotool's names", () => {
    expect(toPlaywrightKeys("Enter")).toBe("Enter");
    expect(toPlaywrightKeys("ctrl+a")).toBe("Control+a");
    expect(toPlaywrightKeys("shift+Tab")).toBe("Shift+Tab");
    expect(toPlaywrightKeys("cmd+left")).toBe("Meta+ArrowLeft");
    expect(toPlaywrightKeys("f5")).toBe("F5");
    expect(toXdotoolKeys("Enter")).toBe("Return");
    expect(toXdotoolKeys("ctrl+shift+PageDown")).toBe("ctrl+shift+Next");
    expect(toXdotoolKeys("ctrl++")).toBe("ctrl+plus");
    expect(toXdotoolKeys("Backspace")).toBe("BackSpace");
    expect(() => toXdotoolKeys("ctrl+")).toThrow(/empty key/);
  });
});

describe("xdotool command lines", () => {
  it("moves then clicks in one run, types in chunks, scrolls in 120 px wheel notches", () => {
    expect(xdotoolCommands({ kind: "click", x: 10.6, y: 20.4, button: "right" })).toEqual([
      ["mousemove", "11", "20", "click", "3"],
    ]);
    expect(xdotoolCommands({ kind: "key", keys: "ctrl+Enter" })).toEqual([
      ["key", "--clearmodifiers", "ctrl+Return"],
    ]);
    const typed = xdotoolCommands({ kind: "type", text: "x".repeat(40) });
    expect(typed.map((argv) => argv.at(-1)?.length)).toEqual([16, 16, 8]);
    expect(typed[0]?.slice(0, 4)).toEqual(["type", "--delay", "4", "--"]);
    expect(xdotoolCommands({ kind: "scroll", x: 5, y: 5, dx: 0, dy: -600 })).toEqual([
      ["mousemove", "5", "5", "click", "--repeat", "5", "--delay", "20", "4"],
    ]);
    expect(xdotoolCommands({ kind: "scroll", x: 5, y: 5, dx: 240, dy: 0 })[0]?.slice(3)).toEqual([
      "click",
      "--repeat",
      "2",
      "--delay",
      "20",
      "7",
    ]);
  });
});
