import { describe, expect, it } from "vitest";
import { applyFileDiff, readDiff } from "./diff-files.js";
import { normalisePatch } from "./normalise.js";

const BASE = `def median(values):
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid]


def mean(values):
    return sum(values) / len(values)
`;

const FILES: Record<string, string> = { "textstats/core.py": BASE };
const readBase = async (path: string) => FILES[path];

function diff(body: string): string {
  return `diff --git a/textstats/core.py b/textstats/core.py\n--- a/textstats/core.py\n+++ b/textstats/core.py\n${body}`;
}

const FIX = diff(`@@ -1,4 +1,6 @@
 def median(values):
     ordered = sorted(values)
     mid = len(ordered) // 2
+    if len(ordered) % 2 == 0:
+        return (ordered[mid - 1] + ordered[mid]) / 2
     return ordered[mid]
`);

/** The same fix with a comment, other spacing and a blank line. */
const FIX_RESTYLED = diff(`@@ -1,4 +1,8 @@
 def median(values):
     ordered = sorted(values)
     mid = len(ordered) // 2
+    # even length: the mean of the two middle values
+    if len(ordered)%2 == 0 :
+
+        return (ordered[mid-1] + ordered[mid]) / 2
     return ordered[mid]
`);

/** A different fix. */
const OTHER = diff(`@@ -1,4 +1,6 @@
 def median(values):
     ordered = sorted(values)
     mid = len(ordered) // 2
+    if len(ordered) % 2 == 0:
+        return ordered[mid - 1]
     return ordered[mid]
`);

/** The fix, plus a comment-only change in another function and a reproduction test. */
const FIX_PLUS_NOISE = `${diff(`@@ -1,4 +1,6 @@
 def median(values):
     ordered = sorted(values)
     mid = len(ordered) // 2
+    if len(ordered) % 2 == 0:
+        return (ordered[mid - 1] + ordered[mid]) / 2
     return ordered[mid]
@@ -7,2 +9,3 @@
 def mean(values):
+    # the arithmetic mean
     return sum(values) / len(values)
`)}diff --git a/tests/test_repro.py b/tests/test_repro.py
new file mode 100644
--- /dev/null
+++ b/tests/test_repro.py
@@ -0,0 +1,2 @@
+def test_even():
+    assert True
`;

describe("normalisePatch", () => {
  it("gives one form to the same edit however it is commented and laid out", async () => {
    const [a, b, c, d] = await Promise.all(
      [FIX, FIX_RESTYLED, OTHER, FIX_PLUS_NOISE].map((p) => normalisePatch(p, readBase)),
    );
    expect(a?.key).toBe(b?.key);
    expect(a?.key).toBe(d?.key); // a comment elsewhere and a test file are not part of the fix
    expect(a?.key).not.toBe(c?.key);
    expect(a?.form).toMatch(/^textstats\/core\.py: def median \( values \) :/);
    expect(a?.raw).toEqual([]);
  });

  it("falls back to the diff's own lines when a hunk does not apply or the language is unknown", async () => {
    const off = await normalisePatch(FIX, async () => "something else entirely\n");
    expect(off.raw).toEqual(["textstats/core.py"]);
    const again = await normalisePatch(FIX_RESTYLED, async () => "something else entirely\n");
    expect(again.key).not.toBe(off.key); // the blank line and comment now count: honest, not clever
    const docs = await normalisePatch(
      "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-old\n+new  words\n",
      async () => "old\n",
    );
    expect(docs.form).toBe("README.md (diff): -old +newwords");
  });

  it("gives an empty form to a patch that changes no code", async () => {
    const onlyTest = await normalisePatch(
      FIX_PLUS_NOISE.slice(FIX_PLUS_NOISE.indexOf("diff --git a/tests")),
      readBase,
    );
    expect(onlyTest.form).toBe("");
  });
});

describe("applyFileDiff", () => {
  it("applies hunks at their line, or a few lines off, and refuses context that is not there", () => {
    const [file] = readDiff(FIX);
    if (!file) throw new Error("no file");
    const post = applyFileDiff(BASE, file);
    expect(post?.text).toContain("return (ordered[mid - 1] + ordered[mid]) / 2");
    expect(post?.changed).toEqual([4, 5]);
    expect(applyFileDiff(`# header\n\n${BASE}`, file)?.changed).toEqual([6, 7]);
    expect(applyFileDiff("def median(values):\n    return 0\n", file)).toBeUndefined();
  });
});
