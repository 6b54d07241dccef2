import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../types.js";
import { fileToolContext } from "./context.js";
import { createFileTools } from "./factory.js";

let dir: string;
let ctx: ToolContext;
const tools = createFileTools({ lint: true });

const PY = [
  "def total(xs):",
  "    s = 0",
  "    for x in xs:",
  "        s += x",
  "    return s",
  "",
  "",
  "def mean(xs):",
  "    return total(xs) / len(xs)",
  "",
].join("\n");

const TS = ["export function add(a: number, b: number): number {", "  return a + b;", "}", ""].join("\n");
const JS = ["const base = 10;", "module.exports = function scale(x) {", "  return x * base;", "};", ""].join(
  "\n",
);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-guard-"));
  ctx = fileToolContext(dir);
  writeFileSync(join(ctx.root, "stats.py"), PY);
  writeFileSync(join(ctx.root, "add.ts"), TS);
  writeFileSync(join(ctx.root, "scale.js"), JS);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const disk = (name: string) => readFileSync(join(ctx.root, name), "utf8");

describe("lint guardrail on the edit tools", () => {
  it("rolls back a Python edit that adds an undefined name (F821) and shows error, proposed and original", async () => {
    const result = await tools.str_replace.execute(
      { path: "stats.py", old: "    return total(xs) / len(xs)", new: "    return totl(xs) / len(xs)" },
      ctx,
    );
    expect(result.error).toBe("lint_failed");
    expect(result.output).toBe(
      [
        "error: Your edit was NOT applied: it introduces 1 new lint error (flake8) in stats.py:",
        "- line 9, column 12: F821 undefined name 'totl'",
        "       9\t    return totl(xs) / len(xs)",
        "",
        "Proposed edit (not applied):",
        "     6\t",
        "     7\t",
        "     8\tdef mean(xs):",
        "     9\t    return totl(xs) / len(xs)",
        "",
        "Original (kept):",
        "     6\t",
        "     7\t",
        "     8\tdef mean(xs):",
        "     9\t    return total(xs) / len(xs)",
        "",
        "stats.py is unchanged. Line numbers above are those of the proposed file. " +
          "Fix the edit (define or import the missing name, correct the syntax or indentation) and send it again.",
      ].join("\n"),
    );
    expect(disk("stats.py")).toBe(PY);
    expect(ctx.editor.undo.get("stats.py") ?? []).toEqual([]);
    expect(result.changedFiles).toBeUndefined();
  });

  it("rolls back a Python syntax error (E999) made with edit n:m", async () => {
    const result = await tools.edit.execute(
      { path: "stats.py", start: 8, end: 8, replacement: "def mean(xs)" },
      ctx,
    );
    expect(result.error).toBe("lint_failed");
    expect(result.output).toContain("Your edit was NOT applied: it introduces 1 new lint error (flake8)");
    expect(result.output).toMatch(/- line 8, column \d+: E999 SyntaxError: /);
    expect(result.output).toContain(
      "Proposed edit (not applied):\n     5\t    return s\n     6\t\n     7\t\n     8\tdef mean(xs)\n",
    );
    expect(result.output).toContain(
      "Original (kept):\n     5\t    return s\n     6\t\n     7\t\n     8\tdef mean(xs):\n",
    );
    expect(disk("stats.py")).toBe(PY);
  });

  it("does not let a pre-existing error block an unrelated edit", async () => {
    writeFileSync(
      join(ctx.root, "legacy.py"),
      "def f():\n    return undefined_thing\n\n\ndef g():\n    return 1\n",
    );
    const result = await tools.insert.execute({ path: "legacy.py", line: 0, text: "import os\n\n" }, ctx);
    expect(result.error).toBeUndefined();
    const moved = await tools.str_replace.execute(
      { path: "legacy.py", old: "return 1", new: "return 2" },
      ctx,
    );
    expect(moved.error).toBeUndefined();
    expect(disk("legacy.py")).toContain("return undefined_thing");
    expect(disk("legacy.py")).toContain("return 2");
  });

  it("rolls back a TypeScript syntax error", async () => {
    const result = await tools.insert.execute(
      { path: "add.ts", line: 3, text: "export const broken = (;" },
      ctx,
    );
    expect(result.error).toBe("lint_failed");
    expect(result.output).toMatch(
      /it introduces \d+ new lint errors? \(typescript\) in add.ts:\n- line 4, column \d+: TS1\d+ /,
    );
    expect(result.output).toContain("Proposed edit (not applied):");
    expect(result.output).toContain("     4\texport const broken = (;");
    expect(result.output).toContain("Original (kept):\n     1\texport function add");
    expect(disk("add.ts")).toBe(TS);
  });

  it("rolls back a JavaScript edit that uses an undefined name", async () => {
    const result = await tools.str_replace.execute(
      { path: "scale.js", old: "x * base", new: "x * bse" },
      ctx,
    );
    expect(result.error).toBe("lint_failed");
    expect(result.output).toContain(
      "- line 3, column 14: TS2552 Cannot find name 'bse'. Did you mean 'base'?",
    );
    expect(result.output).toContain("Proposed edit (not applied):");
    expect(result.output).toContain("     3\t  return x * bse;");
    expect(result.output).toContain("Original (kept):");
    expect(result.output).toContain("     3\t  return x * base;");
    expect(disk("scale.js")).toBe(JS);
  });

  it("checks new files too: create_file and write_file refuse broken content", async () => {
    const created = await tools.create_file.execute(
      { path: "pkg/new.py", content: "print(nothing_here)\n" },
      ctx,
    );
    expect(created.error).toBe("lint_failed");
    expect(created.output).toContain("(pkg/new.py does not exist yet)");
    expect(created.output).toContain("pkg/new.py is not created.");
    expect(existsSync(join(ctx.root, "pkg"))).toBe(false);
    const written = await tools.write_file.execute({ path: "add.ts", content: "export const x = ;\n" }, ctx);
    expect(written.error).toBe("lint_failed");
    expect(disk("add.ts")).toBe(TS);
  });

  it("lets the same edit through when the tool set turns the guardrail off", async () => {
    const off = createFileTools({ lint: false });
    const result = await off.str_replace.execute({ path: "scale.js", old: "x * base", new: "x * bse" }, ctx);
    expect(result.error).toBeUndefined();
    expect(disk("scale.js")).toContain("x * bse");
  });
});
