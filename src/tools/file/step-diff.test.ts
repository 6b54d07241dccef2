import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_DIFF_MAX_LINES, stepDiff } from "./step-diff.js";

const lines = (n: number, tag = "line") => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`);

describe("stepDiff", () => {
  it("is one hunk around the changed lines with three lines of context, as git diff writes it", () => {
    const before = `${lines(10).join("\n")}\n`;
    const after = before.replace("line 5\n", "line five\nline 5.5\n");
    expect(stepDiff("a.py", before, after)).toBe(
      [
        "--- a/a.py",
        "+++ b/a.py",
        "@@ -2,7 +2,8 @@",
        " line 2",
        " line 3",
        " line 4",
        "-line 5",
        "+line five",
        "+line 5.5",
        " line 6",
        " line 7",
        " line 8",
      ].join("\n"),
    );
  });

  it("applies with git apply: the diff is exactly the step's change", () => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-step-diff-"));
    try {
      const before = `${lines(30).join("\n")}\n`;
      const after = before.replace("line 1\n", "first\n").replace("line 30\n", "");
      writeFileSync(join(dir, "f.txt"), before);
      writeFileSync(join(dir, "p.diff"), `${stepDiff("f.txt", before, after)}\n`);
      execFileSync("git", ["apply", "--unidiff-zero", "p.diff"], { cwd: dir });
      expect(execFileSync("cat", ["f.txt"], { cwd: dir, encoding: "utf8" })).toBe(after);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("shows a new file as all added and a deleted one as all removed", () => {
    expect(stepDiff("n.py", null, "a\nb\n")).toBe("--- /dev/null\n+++ b/n.py\n@@ -0,0 +1,2 @@\n+a\n+b");
    expect(stepDiff("n.py", "a\n", null)).toBe("--- a/n.py\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a");
  });

  it("keeps the head and tail of a huge rewrite, saying how many lines it left out", () => {
    const diff = stepDiff("big.txt", lines(600, "old").join("\n"), lines(600, "new").join("\n"));
    const body = diff.split("\n").slice(3);
    expect(body).toHaveLength(STEP_DIFF_MAX_LINES + 1);
    expect(body).toContain(`\\ ${1200 - STEP_DIFF_MAX_LINES} lines of this diff not shown`);
    expect(body.at(-1)).toBe("+new 600");
  });
});
