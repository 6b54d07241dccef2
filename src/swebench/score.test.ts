import { describe, expect, it } from "vitest";
import type { TestStatus } from "../parsers/index.js";
import { isResolved, scoreStatuses } from "./score.js";

const map = (entries: Record<string, TestStatus>) => new Map(Object.entries(entries));

describe("scoreStatuses (SWE-bench's bucketing)", () => {
  it("F2P passes on PASSED or XFAIL; SKIPPED, FAILED, ERROR and missing fail", () => {
    const s = scoreStatuses(
      ["p", "x", "s", "f", "e", "missing"],
      [],
      map({ p: "PASSED", x: "XFAIL", s: "SKIPPED", f: "FAILED", e: "ERROR" }),
    );
    expect(s.FAIL_TO_PASS).toEqual({ success: ["p", "x"], failure: ["s", "f", "e", "missing"] });
    expect(isResolved(s)).toBe(false);
  });

  it("P2P is kept on PASSED, XFAIL or SKIPPED; missing fails", () => {
    const s = scoreStatuses(
      [],
      ["p", "x", "s", "f", "missing"],
      map({ p: "PASSED", x: "XFAIL", s: "SKIPPED", f: "FAILED" }),
    );
    expect(s.PASS_TO_PASS).toEqual({ success: ["p", "x", "s"], failure: ["f", "missing"] });
  });

  it("leaves FAIL_TO_FAIL and PASS_TO_FAIL empty and counts empty lists as passing", () => {
    const s = scoreStatuses([], [], new Map());
    expect(s.FAIL_TO_FAIL).toEqual({ success: [], failure: [] });
    expect(s.PASS_TO_FAIL).toEqual({ success: [], failure: [] });
    expect(isResolved(s)).toBe(true);
    expect(isResolved(scoreStatuses(["a"], ["b"], map({ a: "PASSED", b: "SKIPPED" })))).toBe(true);
  });
});
