import { describe, expect, it } from "vitest";
import type { ProgressEvent } from "../swebench/index.js";
import { bar, clock, createProgress, finishedLine, gradeTick, progressLine } from "./progress.js";

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
      progressLine({
        verb: "grading",
        done: 12,
        total: 30,
        resolved: 9,
        errors: 1,
        elapsedMs: 42_000,
        ranNow: 12,
      }),
    ).toBe("grading 12/30 ▕████████░░░░░░░░░░░░▏ resolved 9 · errors 1 · 0:42 elapsed · ~1:03 left");
    // Nothing graded yet in this run (all reused): no estimate rather than a wrong one.
    expect(
      progressLine({
        verb: "grading",
        done: 5,
        total: 30,
        resolved: 2,
        errors: 0,
        elapsedMs: 1000,
        ranNow: 0,
      }),
    ).not.toMatch(/left/);
  });

  it("redraws one line on a TTY and prints one line per instance elsewhere", () => {
    const raw: string[] = [];
    const lines: string[] = [];
    let t = 0;
    const tty = createProgress({
      verb: "grading",
      total: 3,
      tty: true,
      write: (s) => raw.push(s),
      line: (s) => lines.push(s),
      now: () => t,
    });
    t = 5000;
    tty.tick(gradeTick(event({})));
    tty.close();
    expect(lines).toEqual([]);
    expect(raw.at(-2)).toMatch(
      /^\r\x1b\[2Kgrading 1\/3 .* resolved 1 · errors 0 · 0:05 elapsed · ~0:10 left$/,
    );
    expect(raw.at(-1)).toBe("\n");

    const plain = createProgress({
      verb: "grading",
      total: 3,
      tty: false,
      write: (s) => raw.push(s),
      line: (s) => lines.push(s),
    });
    plain.tick(gradeTick(event({ instance_id: "a" })));
    plain.tick(gradeTick(event({ instance_id: "b", done: 2, resolved: false, detail: "FAIL_TO_PASS 0/1" })));
    plain.tick(
      gradeTick(
        event({
          instance_id: "c",
          done: 3,
          outcome: "timeout",
          resolved: false,
          detail: "over 60 s\nkilled",
        }),
      ),
    );
    plain.tick(
      gradeTick(event({ instance_id: "d", done: 4, outcome: "empty_patch", resolved: false, detail: "x" })),
    );
    plain.close();
    expect(lines).toEqual([
      "[1/3] a: resolved in 1.3 s",
      "[2/3] b: unresolved in 1.3 s — FAIL_TO_PASS 0/1",
      "[3/3] c: timeout — over 60 s",
      "[4/3] d: empty patch (not run)",
    ]);
  });

  it("tracks dollars and this run's resolve rate for experiments, and says when a price is unknown", () => {
    const raw: string[] = [];
    const p = createProgress({
      verb: "running",
      total: 10,
      dollars: true,
      tty: true,
      write: (s) => raw.push(s),
      line: () => {},
      now: () => 0,
    });
    const tick = { line: "", ranNow: true, error: false };
    p.tick({ ...tick, done: 5, resolved: true, costUsd: 0.25 }); // 4 attempts were done by an earlier run
    p.tick({ ...tick, done: 6, resolved: false, costUsd: 0.5 });
    expect(raw.at(-1)).toMatch(
      /^\r\x1b\[2Krunning 6\/10 .* resolved 1 \(50 %\) · errors 0 · \$0\.7500 · 0:00 elapsed/,
    );
    p.tick({ ...tick, done: 7, resolved: true, costUsd: null });
    expect(raw.at(-1)).toMatch(/resolved 2 \(67 %\) · errors 0 · cost unknown/);
    p.close();
  });

  it("says when a result was reused from an earlier run", () => {
    expect(finishedLine(event({ reused: true, resolved: false }))).toBe(
      "[1/3] x: unresolved (earlier report reused)",
    );
  });
});
