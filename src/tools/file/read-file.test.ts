import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../types.js";
import { fileToolContext } from "./context.js";
import { READ_FILE_MAX_LINES, readFileTool } from "./read-file.js";
import { MAX_LINE_CHARS } from "./text.js";

let dir: string;
let ctx: ToolContext;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-read-"));
  ctx = fileToolContext(dir);
  const lines = Array.from({ length: 1000 }, (_, i) => `row ${i + 1}`);
  writeFileSync(join(ctx.root, "long.txt"), `${lines.join("\n")}\n`);
  writeFileSync(join(ctx.root, "wide.js"), `const a = 1;\nconst s = "${"x".repeat(5000)}";\n`);
  writeFileSync(join(ctx.root, "empty.txt"), "");
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("read_file", () => {
  it("returns at most 400 numbered lines and says where to continue", async () => {
    const result = await readFileTool.execute({ path: "long.txt" }, ctx);
    const lines = result.output.split("\n");
    expect(READ_FILE_MAX_LINES).toBe(400);
    expect(lines).toHaveLength(401);
    expect(lines[0]).toBe("     1\trow 1");
    expect(lines[399]).toBe("   400\trow 400");
    expect(lines[400]).toBe(
      "(file continues: lines 1-400 of 1000 shown; call read_file with offset=401 for more)",
    );
  });

  it("honours offset and limit, and has no note at the end of the file", async () => {
    const some = await readFileTool.execute({ path: "long.txt", offset: 995, limit: 3 }, ctx);
    expect(some.output).toBe(
      "   995\trow 995\n   996\trow 996\n   997\trow 997\n" +
        "(file continues: lines 995-997 of 1000 shown; call read_file with offset=998 for more)",
    );
    const tail = await readFileTool.execute({ path: "long.txt", offset: 999 }, ctx);
    expect(tail.output).toBe("   999\trow 999\n  1000\trow 1000");
  });

  it("cuts very long lines with a marker", async () => {
    const result = await readFileTool.execute({ path: "wide.js" }, ctx);
    const second = result.output.split("\n")[1] ?? "";
    expect(second.startsWith(`     2\tconst s = "${"x".repeat(MAX_LINE_CHARS - 11)}…`)).toBe(true);
    expect(second).toContain("[line cut: 3013 more characters]");
  });

  it("handles empty files and offsets past the end", async () => {
    expect((await readFileTool.execute({ path: "empty.txt" }, ctx)).output).toBe("(empty file)");
    const past = await readFileTool.execute({ path: "long.txt", offset: 1001 }, ctx);
    expect(past.error).toBe("out_of_range");
    expect(past.output).toBe(
      "error: offset 1001 is out of range; long.txt has 1000 lines — use an offset between 1 and 1000",
    );
  });
});
