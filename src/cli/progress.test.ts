import { describe, expect, it } from "vitest";
import type { ProgressEvent } from "../swebench/index.js";
import { bar, clock, createProgress, finishedLine, progressLine } from "./progress.js";

const event = (over: Partial<ProgressEvent>): ProgressEvent => ({
  instance_id: "x",
  outcome: "graded",
  resolved: true,
  reused: false,
  detail: "",
  duration_s: 1.25,
  done: 1,
  total: 3,
  resolvedSoFar: 1,
  errorsSoFar: 0,
  ...over,
});

describe("progress display", () => {
  it("draws the bar line with elapsed time and an estimate from this run's pace", () => {
    expect(clock(42_000)).toBe("0:42");
    expect(clock(3_723_000)).toBe("1:02:03");
    expect(bar(12, 30, 10)).toBe("▕████░░░░░░▏");
    expect(
      progressLine({ done: 12, total: 30, resolved: 9, errors: 1, elapsedMs: 42_000, gradedNow: 12 }),
    ).toBe("grading 12/30 ▕████████░░░░░░░░░░░░▏ resolved 9 · errors 1 · 0:42 elapsed · ~1:03 left");
    // Nothing graded yet in this run (all reused): no estimate rather than a wrong one.
    expect(
      progressLine({ done: 5, total: 30, resolved: 2, errors: 0, elapsedMs: 1000, gradedNow: 0 }),
    ).not.toMatch(/left/);
  });

  it("redraws one line on a TTY and prints one line per instance elsewhere", () => {
    const raw: string[] = [];
    const lines: string[] = [];
    let t = 0;
    const tty = createProgress({
      total: 3,
      tty: true,
      write: (s) => raw.push(s),
      line: (s) => lines.push(s),
      now: () => t,
    });
    t = 5000;
    tty.onProgress(event({}));
    tty.close();
    expect(lines).toEqual([]);
    expect(raw.at(-2)).toMatch(
      /^\r\x1b\[2Kgrading 1\/3 .* resolved 1 · errors 0 · 0:05 elapsed · ~0:10 left$/,
    );
    expect(raw.at(-1)).toBe("\n");

    const plain = createProgress({
      total: 3,
      tty: false,
      write: (s) => raw.push(s),
      line: (s) => lines.push(s),
    });
    plain.onProgress(event({ instance_id: "a" }));
    plain.onProgress(event({ instance_id: "b", done: 2, resolved: false, detail: "FAIL_TO_PASS 0/1" }));
    plain.onProgress(
      event({ instance_id: "c", done: 3, outcome: "timeout", resolved: false, detail: "over 60 s\nkilled" }),
    );
    plain.onProgress(
      event({ instance_id: "d", done: 4, outcome: "empty_patch", resolved: false, detail: "x" }),
    );
    plain.close();
    expect(lines).toEqual([
      "[1/3] a: resolved in 1.3 s",
      "[2/3] b: unresolved in 1.3 s — FAIL_TO_PASS 0/1",
      "[3/3] c: timeout — over 60 s",
      "[4/3] d: empty patch (not run)",
    ]);
  });

  it("says when a result was reused from an earlier run", () => {
    expect(finishedLine(event({ reused: true, resolved: false }))).toBe(
      "[1/3] x: unresolved (earlier report reused)",
    );
  });
});
