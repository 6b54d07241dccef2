import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../types.js";
import { fileToolContext } from "./context.js";
import { createFileTools } from "./factory.js";

let dir: string;
let ctx: ToolContext;
const tools = createFileTools({ lint: false });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-edit-"));
  ctx = fileToolContext(dir);
  writeFileSync(join(ctx.root, "five.txt"), "1\n2\n3\n4\n5\n");
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const disk = (name: string) => readFileSync(join(ctx.root, name), "utf8");

describe("insert", () => {
  it("inserts after a line, at the top with 0, and shows the region", async () => {
    const result = await tools.insert.execute({ path: "five.txt", line: 2, text: "a\nb" }, ctx);
    expect(result.changedFiles).toEqual(["five.txt"]);
    expect(result.output).toBe(
      [
        "ok: inserted 2 lines after line 2 in five.txt",
        "     1\t1",
        "     2\t2",
        "     3\ta",
        "     4\tb",
        "     5\t3",
        "     6\t4",
        "     7\t5",
      ].join("\n"),
    );
    await tools.insert.execute({ path: "five.txt", line: 0, text: "top\n" }, ctx);
    expect(disk("five.txt")).toBe("top\n1\n2\na\nb\n3\n4\n5\n");
  });

  it("rejects a line past the end and empty text", async () => {
    const past = await tools.insert.execute({ path: "five.txt", line: 6, text: "x" }, ctx);
    expect(past.error).toBe("out_of_range");
    expect(past.output).toContain("use a line between 0 (top of the file) and 5");
    expect((await tools.insert.execute({ path: "five.txt", line: 1, text: "" }, ctx)).error).toBe(
      "invalid_arguments",
    );
  });
});

describe("create_file", () => {
  it("creates a new file with its directories, and refuses an existing one", async () => {
    const made = await tools.create_file.execute({ path: "pkg/sub/new.py", content: "x = 1\n" }, ctx);
    expect(made.output).toBe("ok: created pkg/sub/new.py (1 line); created pkg, pkg/sub/");
    expect(made.changedFiles).toEqual(["pkg/sub/new.py"]);
    expect(disk("pkg/sub/new.py")).toBe("x = 1\n");
    const again = await tools.create_file.execute({ path: "five.txt", content: "oops" }, ctx);
    expect(again.error).toBe("already_exists");
    expect(again.output).toContain("str_replace");
    expect(disk("five.txt")).toBe("1\n2\n3\n4\n5\n");
  });
});

describe("undo", () => {
  it("restores the previous content, one step at a time", async () => {
    await tools.str_replace.execute({ path: "five.txt", old: "3\n", new: "three\n" }, ctx);
    await tools.str_replace.execute({ path: "five.txt", old: "4\n", new: "four\n" }, ctx);
    const first = await tools.undo.execute({ path: "five.txt" }, ctx);
    expect(first.output).toMatch(/^ok: undid the last edit to five.txt \(1 more undo step left\)\n/);
    expect(first.output).toContain("     4\t4");
    expect(disk("five.txt")).toBe("1\n2\nthree\n4\n5\n");
    await tools.undo.execute({ path: "./five.txt" }, ctx);
    expect(disk("five.txt")).toBe("1\n2\n3\n4\n5\n");
    const none = await tools.undo.execute({ path: "five.txt" }, ctx);
    expect(none.error).toBe("nothing_to_undo");
  });

  it("deletes a file that create_file made", async () => {
    await tools.create_file.execute({ path: "fresh.py", content: "y = 2\n" }, ctx);
    const result = await tools.undo.execute({ path: "fresh.py" }, ctx);
    expect(result.output).toBe("ok: undid the creation of fresh.py; the file is deleted");
    expect(existsSync(join(ctx.root, "fresh.py"))).toBe(false);
  });
});

describe("edit (SWE-agent edit n:m)", () => {
  it("replaces an inclusive range: 4 lines for 4 keeps the length (SWE-agent's diophantine.py 404:407)", async () => {
    const lines = Array.from({ length: 3093 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(ctx.root, "diophantine.py"), `${lines.join("\n")}\n`);
    await tools.view.execute({ path: "diophantine.py", start: 400 }, ctx);
    const replacement = [
      "    elif (total_degree > 3 and",
      "          len(set(k.exp[k.is_Pow])) == 1):",
      "        if all(coeff[k] == 1):",
      "            diop_type = 'general_sum_even'",
    ].join("\n");
    const result = await tools.edit.execute({ start: 404, end: 407, replacement }, ctx);
    expect(result.error).toBeUndefined();
    expect(result.output.split("\n")[0]).toBe(
      "ok: replaced lines 404-407 (4 lines) with 4 lines in diophantine.py; it now has 3093 lines",
    );
    expect(result.output).toContain("[File: diophantine.py (3093 lines total)]");
    expect(result.output).toContain("   405\t          len(set(k.exp[k.is_Pow])) == 1):");
    expect(result.output).toContain("   408\tline 408");
    const after = disk("diophantine.py").split("\n");
    expect(after[402]).toBe("line 403");
    expect(after[403]).toBe("    elif (total_degree > 3 and");
    expect(after[407]).toBe("line 408");
    expect(ctx.editor.windowStart).toBe(404 - 16);
  });

  it("deletes with an empty replacement, inserts with end = start - 1, and checks the range", async () => {
    const deleted = await tools.edit.execute({ path: "five.txt", start: 2, end: 3, replacement: "" }, ctx);
    expect(deleted.output.split("\n")[0]).toBe("ok: deleted lines 2-3 in five.txt; it now has 3 lines");
    expect(disk("five.txt")).toBe("1\n4\n5\n");
    const inserted = await tools.edit.execute(
      { path: "five.txt", start: 2, end: 1, replacement: "x\n" },
      ctx,
    );
    expect(inserted.output.split("\n")[0]).toBe(
      "ok: inserted 1 line before line 2 in five.txt; it now has 4 lines",
    );
    expect(disk("five.txt")).toBe("1\nx\n4\n5\n");
    expect(
      (await tools.edit.execute({ path: "five.txt", start: 3, end: 1, replacement: "" }, ctx)).error,
    ).toBe("invalid_arguments");
    const past = await tools.edit.execute({ path: "five.txt", start: 2, end: 9, replacement: "" }, ctx);
    expect(past.error).toBe("out_of_range");
    expect(past.output).toContain("five.txt has 4 lines");
  });

  it("needs a path or an open file", async () => {
    const result = await tools.edit.execute({ start: 1, end: 1, replacement: "x" }, ctx);
    expect(result.error).toBe("no_file_open");
  });
});

describe("write_file", () => {
  it("creates or overwrites a whole file, and undo restores it", async () => {
    expect((await tools.write_file.execute({ path: "new/w.txt", content: "a\nb\n" }, ctx)).output).toBe(
      "ok: created new/w.txt (2 lines)",
    );
    const over = await tools.write_file.execute({ path: "five.txt", content: "only\n" }, ctx);
    expect(over.output).toBe("ok: wrote five.txt (1 line; it had 5)");
    expect(over.changedFiles).toEqual(["five.txt"]);
    await tools.undo.execute({ path: "five.txt" }, ctx);
    expect(disk("five.txt")).toBe("1\n2\n3\n4\n5\n");
  });
});
