import { describe, expect, it } from "vitest";
import { addedIssues, createLintGuard, noLintGuard } from "./guardrail.js";
import type { LintIssue, LintReport } from "./types.js";

const issue = (line: number, code: string, message: string, syntax = false): LintIssue => ({
  line,
  column: 1,
  code,
  message,
  syntax,
});
const report = (issues: LintIssue[], namesChecked = true): LintReport => ({
  linter: "test",
  issues,
  namesChecked,
});

describe("addedIssues", () => {
  it("ignores errors that only moved, but counts extra copies", () => {
    const before = report([issue(3, "F821", "undefined name 'x'")]);
    expect(addedIssues(before, report([issue(9, "F821", "undefined name 'x'")]))).toEqual([]);
    const twice = report([issue(9, "F821", "undefined name 'x'"), issue(12, "F821", "undefined name 'x'")]);
    expect(addedIssues(before, twice)).toEqual([issue(12, "F821", "undefined name 'x'")]);
  });

  it("ignores line numbers inside messages", () => {
    const before = report([
      issue(2, "E999", "IndentationError: expected an indented block after 'if' statement on line 1", true),
    ]);
    const after = report([
      issue(7, "E999", "IndentationError: expected an indented block after 'if' statement on line 6", true),
    ]);
    expect(addedIssues(before, after)).toEqual([]);
  });

  it("treats E111 as a set, so two-space files can still grow", () => {
    const before = report([issue(2, "E111", "indentation is not a multiple of 4")]);
    const after = report([
      issue(2, "E111", "indentation is not a multiple of 4"),
      issue(3, "E111", "indentation is not a multiple of 4"),
    ]);
    expect(addedIssues(before, after)).toEqual([]);
    expect(addedIssues(report([]), after)).toHaveLength(2);
  });

  it("does not blame a syntax fix for the names it reveals", () => {
    const before = report([issue(1, "E999", "SyntaxError: invalid syntax", true)], false);
    const after = report([issue(4, "F821", "undefined name 'y'")]);
    expect(addedIssues(before, after)).toEqual([]);
  });
});

describe("createLintGuard", () => {
  it("accepts files it has no linter for without linting", async () => {
    const guard = createLintGuard(() => Promise.reject(new Error("must not lint")));
    expect(await guard.review("notes.md", "a", "b")).toEqual({ accepted: true, linter: undefined });
    expect(await noLintGuard.review("a.py", "", "def (")).toEqual({ accepted: true, linter: undefined });
  });

  it("rejects with the added issues, treating a new file as clean before", async () => {
    const guard = createLintGuard(async (_path, content) =>
      report(content.includes("bad") ? [issue(1, "F821", "undefined name 'bad'")] : []),
    );
    expect(await guard.review("a.py", null, "ok = 1\n")).toEqual({ accepted: true, linter: "test" });
    expect(await guard.review("a.py", null, "bad\n")).toEqual({
      accepted: false,
      linter: "test",
      added: [issue(1, "F821", "undefined name 'bad'")],
    });
  });
});
