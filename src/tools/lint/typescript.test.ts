import { describe, expect, it } from "vitest";
import { lintFile } from "./lint.js";

const summary = async (path: string, content: string) =>
  (await lintFile(path, content)).issues.map((i) => `${i.line} ${i.code} ${i.message}`);

describe("lintFile for JS/TS (typescript compiler API)", () => {
  it("finds undefined names but not runtime globals", async () => {
    const source = [
      "import { readFileSync } from 'node:fs';",
      "const data: string = readFileSync(__dirname + '/x', 'utf8');",
      "console.log(data, process.argv, new Map(), setTimeout, Buffer);",
      "export const total = data.length + missing;",
    ].join("\n");
    expect(await summary("src/a.ts", source)).toEqual(["4 TS2304 Cannot find name 'missing'."]);
  });

  it("checks JavaScript too, including require and module", async () => {
    const source = "const fs = require('fs');\nmodule.exports = { read: () => fs.readFileSync(nope) };\n";
    expect(await summary("lib/b.cjs", source)).toEqual(["2 TS2304 Cannot find name 'nope'."]);
  });

  it("reports typos with the did-you-mean variant", async () => {
    expect(await summary("c.js", "const counter = 1;\nexport default countr + 1;\n")).toEqual([
      "2 TS2552 Cannot find name 'countr'. Did you mean 'counter'?",
    ]);
  });

  it("reports syntax errors as syntax and says names were not reliably checked", async () => {
    const report = await lintFile("d.ts", "function f( {\n  return 1;\n}\n");
    expect(report.linter).toBe("typescript");
    expect(report.issues.length).toBeGreaterThan(0);
    expect(report.issues.every((i) => i.syntax || i.code.startsWith("TS2"))).toBe(true);
    expect(report.issues.some((i) => i.syntax)).toBe(true);
    expect(report.namesChecked).toBe(false);
  });

  it("ignores type errors: only syntax and undefined names are the guardrail's business", async () => {
    expect(
      await summary("e.tsx", "export const n: number = 'text';\nexport const A = () => <div>{n}</div>;\n"),
    ).toEqual([]);
  });
});

describe("lintFile for JS/TS across edits (incremental re-parse)", () => {
  it("reports each version of an edited file exactly as a fresh parse would", async () => {
    const base = [
      "import { join } from 'node:path';",
      "export const root = join('/', 'x');",
      "export function area(r: number): number {",
      "  const k = Math.PI;",
      "  return k * r * r; // squared",
      "}",
      "export const re = /a+b/g;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text with a template in it
      "export const msg = `area ${area(2)} at ${root}`;",
      "",
    ].join("\n");
    const versions = [
      base,
      base.replace("const k = Math.PI;", "const k = Math.PI * scale;"),
      base.replace("return k * r * r;", "return k * r * r /* unclosed"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text with a template in it
      base.replace("at ${root}`", "at ${rooot}`"),
      base.replace("/a+b/g", "/a+(b/g"),
      base.replace("export function area", "function area(q) {}\nexport function area"),
      `${base}export const later = area(undefinedLater);\n`,
      base.slice(0, base.indexOf("export const re")),
      "",
      base,
    ];
    for (const [i, content] of versions.entries()) {
      const incremental = await lintFile("edited.ts", content);
      const fresh = await lintFile(`fresh-${i}.ts`, content);
      expect({ i, report: incremental }).toEqual({ i, report: fresh });
    }
    const jsx = "export const A = () => <div>{n}</div>;\n";
    expect(await summary("view.tsx", jsx)).toEqual(["1 TS2304 Cannot find name 'n'."]);
    expect(await summary("view.tsx", jsx.replace("{n}", "{String(1)}"))).toEqual([]);
  });
});
