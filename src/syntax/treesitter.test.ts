import { describe, expect, it } from "vitest";
import { codeLanguageOf, languageOf } from "./languages.js";
import { withParsed, withTree } from "./treesitter.js";

/** A test file the size of a large real one (path-to-regexp's spec files are 55 KB; this is ~280 KB). */
const BIG = `describe("big", () => {\n${Array.from(
  { length: 3000 },
  (_, i) =>
    `  it("case ${i}", () => {\n    expect(match("/a/${i}", { end: ${i % 2 === 0} })).toEqual([${i}, "x"]);\n  });\n`,
).join("")}});\n`;

describe("withParsed", () => {
  it("frees each tree: parsing 56 MB of source in one process does not exhaust tree-sitter's heap", async () => {
    // Trees kept alive made tree-sitter abort at the 128th parse of this file (and after 1,222 of a 55 KB one).
    let nodes = 0;
    for (let i = 0; i < 200; i++)
      nodes = (await withParsed("typescript", "big.test.ts", BIG, (root) => root.namedChildCount)) ?? -1;
    expect(nodes).toBe(1);
    expect(await withParsed("typescript", "small.ts", "const x = 1;\n", (root) => root.text)).toBe(
      "const x = 1;\n",
    );
  });

  it("gives undefined for a file that does not parse cleanly", async () => {
    expect(await withParsed("typescript", "bad.ts", "const = ;", () => "parsed")).toBeUndefined();
  });
});

describe("Go and Rust", () => {
  it("are code languages, kept out of SyntaxLanguage's three", () => {
    expect(codeLanguageOf("cmd/main.go")).toBe("go");
    expect(codeLanguageOf("src/lib.rs")).toBe("rust");
    expect(codeLanguageOf("ui/App.tsx")).toBe("typescript");
    expect(languageOf("cmd/main.go")).toBeUndefined();
  });

  it("parse with their grammars", async () => {
    const go = await withParsed("go", "a.go", "package a\n\nfunc Run() {}\n", (root) =>
      root.namedChildren.map((c) => c?.type),
    );
    expect(go).toEqual(["package_clause", "function_declaration"]);
    const rust = await withParsed("rust", "a.rs", "pub struct P {}\n", (root) => root.namedChildren[0]?.type);
    expect(rust).toBe("struct_item");
  });
});

describe("withTree", () => {
  it("hands over a tree with syntax errors too, marked as such", async () => {
    const seen = await withTree("python", "bad.py", "def f(:\n    pass\n", (root) => root.hasError);
    expect(seen).toBe(true);
  });
});
