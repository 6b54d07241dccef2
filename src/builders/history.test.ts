import { describe, expect, it } from "vitest";
import { asFix, type CommitChange } from "./history.js";

const change = (subject: string, merge: boolean): CommitChange => ({
  sha: "a".repeat(40),
  date: "2026-01-01T00:00:00Z",
  subject,
  merge,
  files: [
    { path: "pkg/core.py", lines: 3 },
    { path: "tests/test_core.py", lines: 5 },
  ],
});

describe("asFix", () => {
  it("takes a merged pull request as one fix", () => {
    expect(asFix(change("Merge pull request #12 from someone/fix-core", true))?.sourceLines).toBe(3);
  });

  it("leaves out a merge that brings the main line into a side line: that is everyone else's work", () => {
    expect(asFix(change("Merge branch 'master' of github.com:org/repo", true))).toBeUndefined();
    expect(asFix(change("Merge remote-tracking branch 'origin/main'", true))).toBeUndefined();
    // The same words on an ordinary commit are just a subject.
    expect(asFix(change("Merge branch 'master' handling into the parser", false))).toBeDefined();
  });
});
