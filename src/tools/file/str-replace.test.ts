import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../types.js";
import { fileToolContext } from "./context.js";
import { createFileTools } from "./factory.js";

let dir: string;
let ctx: ToolContext;
const { str_replace } = createFileTools({ lint: false });

const SOURCE = [
  "def total(xs):",
  "    s = 0",
  "    for x in xs:",
  "        s += x",
  "    return s",
  "",
  "def mean(xs):",
  "    return total(xs) / len(xs)",
  "",
].join("\n");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-replace-"));
  ctx = fileToolContext(dir);
  writeFileSync(join(ctx.root, "stats.py"), SOURCE);
  writeFileSync(join(ctx.root, "a.txt"), "aaa\n");
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const disk = (name: string) => readFileSync(join(ctx.root, name), "utf8");

describe("str_replace", () => {
  it("replaces a unique match, saves, and shows the region with line numbers", async () => {
    const result = await str_replace.execute(
      {
        path: "stats.py",
        old: "    return total(xs) / len(xs)",
        new: "    if not xs:\n        return 0.0\n    return total(xs) / len(xs)",
      },
      ctx,
    );
    expect(result.error).toBeUndefined();
    expect(result.changedFiles).toEqual(["stats.py"]);
    expect(result.output).toBe(
      [
        "ok: replaced 1 occurrence at line 8 in stats.py",
        "     5\t    return s",
        "     6\t",
        "     7\tdef mean(xs):",
        "     8\t    if not xs:",
        "     9\t        return 0.0",
        "    10\t    return total(xs) / len(xs)",
      ].join("\n"),
    );
    expect(disk("stats.py")).toContain("    if not xs:\n        return 0.0\n");
    expect(ctx.editor.undo.get("stats.py")).toEqual([SOURCE]);
    // What a person sees of the step: the change as a diff (the model reads the region above).
    expect(result.diff).toBe(
      [
        "--- a/stats.py",
        "+++ b/stats.py",
        "@@ -5,4 +5,6 @@",
        "     return s",
        " ",
        " def mean(xs):",
        "+    if not xs:",
        "+        return 0.0",
        "     return total(xs) / len(xs)",
      ].join("\n"),
    );
  });

  it("reports no match without changing the file, and hints at whitespace differences", async () => {
    const result = await str_replace.execute({ path: "stats.py", old: "return s + 1", new: "x" }, ctx);
    expect(result.error).toBe("no_match");
    expect(result.output).toMatch(
      /^error: no match for old in stats.py; .*view the file and copy the exact text, including whitespace$/,
    );
    const loose = await str_replace.execute(
      { path: "stats.py", old: "  s = 0\n  for x in xs:", new: "y" },
      ctx,
    );
    expect(loose.output).toContain("starts at line 2, with different whitespace");
    expect(disk("stats.py")).toBe(SOURCE);
    expect(ctx.editor.undo.size).toBe(0);
  });

  it("lists the line of every match when there are several", async () => {
    const result = await str_replace.execute({ path: "stats.py", old: "xs", new: "values" }, ctx);
    expect(result.error).toBe("multiple_matches");
    expect(result.output).toBe(
      "error: 5 matches for old in stats.py at lines 1, 3, 7, 8, 8 — include more surrounding lines so it matches exactly once",
    );
    expect(disk("stats.py")).toBe(SOURCE);
  });

  it('counts overlapping matches: "aa" occurs twice in "aaa"', async () => {
    const result = await str_replace.execute({ path: "a.txt", old: "aa", new: "b" }, ctx);
    expect(result.error).toBe("multiple_matches");
    expect(result.output).toContain("2 matches for old in a.txt at lines 1, 1");
  });

  it("refuses an empty old and an edit that changes nothing", async () => {
    const empty = await str_replace.execute({ path: "a.txt", old: "", new: "b" }, ctx);
    expect(empty.error).toBe("invalid_arguments");
    expect(empty.output).toMatch(/^error: old is empty/);
    const same = await str_replace.execute({ path: "a.txt", old: "aaa", new: "aaa" }, ctx);
    expect(same.error).toBe("invalid_arguments");
    expect(same.output).toContain("nothing would change");
  });

  it("deletes text when new is empty and keeps CRLF files CRLF", async () => {
    writeFileSync(join(ctx.root, "win.txt"), "one\r\ntwo\r\nthree\r\n");
    const result = await str_replace.execute({ path: "win.txt", old: "one\ntwo\n", new: "1\n2\n" }, ctx);
    expect(result.output).toMatch(/^ok: replaced 1 occurrence at line 1 in win.txt/);
    expect(disk("win.txt")).toBe("1\r\n2\r\nthree\r\n");
    await str_replace.execute({ path: "win.txt", old: "three\r\n", new: "" }, ctx);
    expect(disk("win.txt")).toBe("1\r\n2\r\n");
  });
});
