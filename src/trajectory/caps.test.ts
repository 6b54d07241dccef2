import { describe, expect, it } from "vitest";
import { capInput, capRecordedCall, capText, RECORDED_CALL_CHARS } from "./caps.js";

describe("trajectory caps for nested calls", () => {
  it("keeps text within the cap as it is, and cuts longer text to the cap with a note", () => {
    expect(capText("short", 20)).toBe("short");
    const cut = capText(`${"a".repeat(60)}${"b".repeat(40)}`, 50);
    // 100 characters into 50: room for a note about 100 characters (26) leaves 12 of head and 12 of
    // tail, so 76 are cut and the note says so in 25.
    expect(cut).toBe(`${"a".repeat(12)} … [76 characters cut] … ${"b".repeat(12)}`);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(capText(cut, 50)).toBe(cut); // capping twice is capping once
  });

  it("says how much was cut, with thousands separators", () => {
    const text = "x".repeat(1_000_000);
    const cut = capText(text);
    expect(cut.length).toBeLessThanOrEqual(RECORDED_CALL_CHARS);
    expect(cut).toMatch(/^x+ … \[99\d,\d{3} characters cut\] … x+$/);
    const kept = cut.replace(/ … \[.*\] … /, "").length;
    expect(Number(/\[([\d,]+) characters/.exec(cut)?.[1]?.replace(/,/g, ""))).toBe(1_000_000 - kept);
  });

  it("keeps small arguments as values and large ones as their JSON cut", () => {
    expect(capInput({ path: "a.py", content: "x = 1\n" })).toEqual({ path: "a.py", content: "x = 1\n" });
    const big = capInput({ path: "a.py", content: "y".repeat(20_000) }, 100);
    expect(typeof big).toBe("string");
    expect(big).toMatch(/^\{"path":"a\.py","content":"y* … \[19,\d{3} characters cut\] … y+"\}$/);
    expect(capInput(big, 100)).toBe(big);
    const call = capRecordedCall(
      { tool: "view", input: { path: "a" }, output: "z".repeat(500), error: null, duration_ms: 1 },
      100,
    );
    expect(call).toMatchObject({ tool: "view", input: { path: "a" }, error: null, duration_ms: 1 });
    expect(call.output.length).toBeLessThanOrEqual(100);
  });
});
