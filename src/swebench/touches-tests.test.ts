import { describe, expect, it } from "vitest";
import { isTestPath, patchPaths, splitDiff, touchesTests, unquoteCPath } from "./touches-tests.js";

const edit = (path: string) =>
  `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1,2 +1,2 @@\n ctx\n-old\n+new\n`;

describe("touchesTests", () => {
  it("knows test files in Python, JavaScript and Go layouts", () => {
    for (const p of [
      "tests/unit/helpers.py",
      "pkg/test/util.py",
      "src/__tests__/a.js",
      "pkg/test_models.py",
      "pkg/models_test.py",
      "conftest.py",
      "src/a.test.ts",
      "web/b.spec.js",
      "cmd/main_test.go",
    ])
      expect(isTestPath(p), p).toBe(true);
    for (const p of [
      "src/testing_utils.py",
      "src/contest.py",
      "latest/x.py",
      "src/attest.py",
      "docs/tests.md",
    ])
      expect(isTestPath(p), p).toBe(false);
  });

  it("lists only the test files of a mixed patch, in order", () => {
    const patch = edit("src/core.py") + edit("tests/test_core.py") + edit("src/util.ts");
    expect(touchesTests(patch)).toEqual(["tests/test_core.py"]);
    expect(touchesTests(edit("src/core.py"))).toEqual([]);
    expect(touchesTests(null)).toEqual([]);
  });

  it("sees deletions, new files and pure renames", () => {
    const deletion =
      "diff --git a/tests/test_old.py b/tests/test_old.py\ndeleted file mode 100644\n--- a/tests/test_old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
    const creation = "--- /dev/null\n+++ b/pkg/new_test.py\n@@ -0,0 +1 @@\n+x\n";
    const rename =
      "diff --git a/tests/helpers.py b/src/helpers.py\nsimilarity index 100%\nrename from tests/helpers.py\nrename to src/helpers.py\n";
    expect(touchesTests(deletion)).toEqual(["tests/test_old.py"]);
    expect(touchesTests(creation)).toEqual(["pkg/new_test.py"]);
    expect(touchesTests(rename)).toEqual(["tests/helpers.py"]);
  });

  it("does not read hunk lines that look like headers as file names", () => {
    // Removing a SQL comment "-- tests/x" makes a line "--- tests/x" inside a hunk.
    const patch = "--- a/schema.sql\n+++ b/schema.sql\n@@ -1,2 +1,1 @@\n--- tests/test_fake.py\n keep\n";
    expect(patchPaths(patch)).toEqual(["schema.sql"]);
    expect(touchesTests(patch)).toEqual([]);
  });
});

describe("C-quoted paths", () => {
  it("are read as the names git and patch write, octal escapes and all", () => {
    const patch = [
      'diff --git "a/\\056git/hooks/post-checkout" "b/\\056git/hooks/post-checkout"',
      "new file mode 100755",
      "--- /dev/null",
      '+++ "b/\\056git/hooks/post-checkout"',
      "@@ -0,0 +1 @@",
      "+#!/bin/sh",
      'diff --git "a/t\\303\\251st s/\\"q\\".py" "b/t\\303\\251st s/\\"q\\".py"',
      '--- "a/t\\303\\251st s/\\"q\\".py"',
      '+++ "b/t\\303\\251st s/\\"q\\".py"',
      "@@ -1 +1 @@",
      "-a",
      "+b",
      "",
    ].join("\n");
    expect(patchPaths(patch)).toEqual([".git/hooks/post-checkout", 'tést s/"q".py']);
    expect(unquoteCPath('"tab\\there\\\\"')).toBe("tab\there\\");
  });
});

describe("splitDiff", () => {
  it("cuts a git diff into one block per file that join back into the diff, never inside a hunk", () => {
    const a =
      "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-old\n+diff --git a/fake b/fake\n";
    const b =
      "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n";
    expect(splitDiff(a + b)).toEqual([a, b]);
    expect(splitDiff("")).toEqual([]);
  });
});
