/**
 * The pure bits between stages: which code the repair prompt shows around the chosen lines, and where
 * the reproduction test goes and what patch adds it.
 */
import { posix } from "node:path";
import type { LineRange } from "./replies.js";

/** Lines shown either side of a chosen range: enough for a SEARCH block to quote unambiguous context. */
export const CONTEXT_LINES = 10;

/** The file's text around `ranges` (widened, merged), elided parts marked `…`. */
export function segmentAround(text: string, ranges: readonly LineRange[]): string {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const spans = ranges
    .map(
      (r) => [Math.max(1, r.start - CONTEXT_LINES), Math.min(lines.length, r.end + CONTEXT_LINES)] as const,
    )
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of spans) {
    const last = merged.at(-1);
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  const out: string[] = [];
  let shownTo = 0;
  for (const [s, e] of merged) {
    if (s > shownTo + 1) out.push("…");
    out.push(...lines.slice(s - 1, e));
    shownTo = e;
  }
  if (shownTo < lines.length) out.push("…");
  return out.join("\n");
}

/**
 * Where the reproduction test is saved: beside the repository's own tests, named the way they are
 * (`test_x.py` → `test_reproduction.py`, `x.test.ts` → `reproduction.test.ts`), so the project's test
 * command collects it. Returns an existing test file too, to show the model how tests begin there.
 */
export function reproductionPath(
  testFiles: readonly string[],
  language: string,
): { path: string; example: string | undefined } {
  const counts = new Map<string, number>();
  for (const f of testFiles) counts.set(posix.dirname(f), (counts.get(posix.dirname(f)) ?? 0) + 1);
  const dir = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  const example = dir === undefined ? undefined : testFiles.find((f) => posix.dirname(f) === dir);
  if (dir === undefined || example === undefined)
    return {
      path: language === "python" ? "tests/test_reproduction.py" : "test/reproduction.test.ts",
      example,
    };
  const base = posix.basename(example);
  const ext = posix.extname(base);
  const name = base.startsWith("test_")
    ? `test_reproduction${ext}`
    : /_test\.[^.]+$/.test(base)
      ? `reproduction_test${ext}`
      : base.replace(/^[^.]+/, "reproduction");
  return { path: dir === "." ? name : `${dir}/${name}`, example };
}

/** A patch that adds `code` as the new file `path`. */
export function newFilePatch(path: string, code: string): string {
  const lines = code.endsWith("\n") ? code.slice(0, -1).split("\n") : code.split("\n");
  return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}\n`;
}
