import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../types.js";
import { fileToolContext } from "./context.js";
import { gotoTool, scrollTool, VIEW_WINDOW_LINES, viewTool } from "./viewer.js";

let dir: string;
let ctx: ToolContext;

function numberedLines(from: number, to: number): string[] {
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`${String(n).padStart(6)}\tline ${n}`);
  return out;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-viewer-"));
  ctx = fileToolContext(dir);
  const lines = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`);
  writeFileSync(join(ctx.root, "big.txt"), `${lines.join("\n")}\n`);
  writeFileSync(join(ctx.root, "empty.py"), "");
  mkdirSync(join(ctx.root, "pkg"));
  writeFileSync(join(ctx.root, "pkg", "mod.py"), "x = 1\n");
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** First shown line number of a window observation. */
function firstShown(output: string): number {
  const line = output.split("\n").find((l) => /^\s+\d+\t/.test(l));
  return Number(line?.split("\t")[0]);
}

describe("view", () => {
  it("shows the header, 100 numbered lines and what is hidden below", async () => {
    const result = await viewTool.execute({ path: "big.txt" }, ctx);
    expect(VIEW_WINDOW_LINES).toBe(100);
    expect(result.error).toBeUndefined();
    expect(result.output).toBe(
      ["[File: big.txt (250 lines total)]", ...numberedLines(1, 100), "(150 more lines below)"].join("\n"),
    );
    expect(ctx.editor.openFile).toBe("big.txt");
  });

  it("counts lines above and below a middle window, and stops at the last line", async () => {
    const middle = await viewTool.execute({ path: "big.txt", start: 101 }, ctx);
    expect(middle.output).toBe(
      [
        "[File: big.txt (250 lines total)]",
        "(100 more lines above)",
        ...numberedLines(101, 200),
        "(50 more lines below)",
      ].join("\n"),
    );
    const end = await viewTool.execute({ path: join(ctx.root, "big.txt"), start: 200 }, ctx);
    expect(end.output).toBe(
      ["[File: big.txt (250 lines total)]", "(199 more lines above)", ...numberedLines(200, 250)].join("\n"),
    );
  });

  it("says (empty file) for an empty file", async () => {
    const result = await viewTool.execute({ path: "empty.py" }, ctx);
    expect(result.output).toBe("[File: empty.py (0 lines total)]\n(empty file)");
  });

  it("rejects a start past the end with what to do", async () => {
    const result = await viewTool.execute({ path: "big.txt", start: 251 }, ctx);
    expect(result.error).toBe("out_of_range");
    expect(result.output).toBe(
      "error: line 251 is out of range; big.txt has 250 lines — use a start between 1 and 250",
    );
  });

  it("turns a directory into a listing and a missing file into not_found", async () => {
    const folder = await viewTool.execute({ path: "pkg" }, ctx);
    expect(folder.error).toBe("is_directory");
    expect(folder.output).toContain("pkg is a directory, not a file");
    expect(folder.output).toContain("mod.py");
    expect(folder.output).toContain("pkg/mod.py");
    const root = await viewTool.execute({ path: "." }, ctx);
    expect(root.error).toBe("is_directory");
    expect(root.output).toContain("big.txt");
    const missing = await viewTool.execute({ path: "nope.py" }, ctx);
    expect(missing.error).toBe("not_found");
    expect(missing.output).toMatch(/^error: nope.py does not exist/);
  });
});

describe("goto", () => {
  it("needs an open file", async () => {
    const result = await gotoTool.execute({ line: 3 }, ctx);
    expect(result.error).toBe("no_file_open");
    expect(result.output).toContain("call view");
  });

  it("puts the target a sixth of the way down, clamped to the file", async () => {
    await viewTool.execute({ path: "big.txt" }, ctx);
    const middle = await gotoTool.execute({ line: 120 }, ctx);
    expect(firstShown(middle.output)).toBe(104);
    const lines = middle.output.split("\n");
    // header, "(103 more lines above)", then the window: line 120 is its 17th line.
    expect(lines[2 + 16]).toBe(`${String(120).padStart(6)}\tline 120`);
    expect(firstShown((await gotoTool.execute({ line: 5 }, ctx)).output)).toBe(1);
    const end = await gotoTool.execute({ line: 245 }, ctx);
    expect(firstShown(end.output)).toBe(151);
    expect(end.output).not.toContain("more lines below");
    const bad = await gotoTool.execute({ line: 251 }, ctx);
    expect(bad.error).toBe("out_of_range");
    expect(bad.output).toContain("between 1 and 250");
  });
});

describe("scroll", () => {
  it("moves by the window minus a 2-line overlap and says when it cannot go further", async () => {
    await viewTool.execute({ path: "big.txt" }, ctx);
    const down = await scrollTool.execute({ direction: "down" }, ctx);
    expect(firstShown(down.output)).toBe(99);
    expect(down.output).toContain(`${String(100).padStart(6)}\tline 100`);
    // The next step would start at 197; it is clamped so the last window is full.
    expect(firstShown((await scrollTool.execute({ direction: "down" }, ctx)).output)).toBe(151);
    const atEnd = await scrollTool.execute({ direction: "down" }, ctx);
    expect(atEnd.error).toBeUndefined();
    expect(atEnd.output).toBe(
      "(already at the end of big.txt: lines 151-250 of 250 are the last window; scroll up or goto a line)",
    );
    expect(firstShown((await scrollTool.execute({ direction: "up" }, ctx)).output)).toBe(53);
    expect(firstShown((await scrollTool.execute({ direction: "up" }, ctx)).output)).toBe(1);
    expect((await scrollTool.execute({ direction: "up" }, ctx)).output).toContain(
      "already at the top of big.txt",
    );
  });

  it("scrolls from where view left the window, even past the last full window", async () => {
    await viewTool.execute({ path: "big.txt", start: 200 }, ctx);
    expect((await scrollTool.execute({ direction: "down" }, ctx)).output).toContain("lines 200-250 of 250");
    expect(firstShown((await scrollTool.execute({ direction: "up" }, ctx)).output)).toBe(102);
  });

  it("needs an open file", async () => {
    expect((await scrollTool.execute({ direction: "down" }, ctx)).error).toBe("no_file_open");
  });
});
