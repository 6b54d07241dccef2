import { describe, expect, it, vi } from "vitest";
import { codeLanguageOf, languageOf } from "./languages.js";
import { type Parser, parserFor, withParsed, withTree } from "./treesitter.js";

/** A test file the size of a large real one (path-to-regexp's spec files are 55 KB; this is ~280 KB). */
const BIG = `describe("big", () => {\n${Array.from(
  { length: 3000 },
  (_, i) =>
    `  it("case ${i}", () => {\n    expect(match("/a/${i}", { end: ${i % 2 === 0} })).toEqual([${i}, "x"]);\n  });\n`,
).join("")}});\n`;

describe("withParsed", () => {
  it("frees each tree it parsed, when use returns, when it throws, and when the file does not parse", async () => {
    // Trees kept alive grew tree-sitter's WASM heap until it aborted (at the 128th parse of a 280 KB
    // file): every tree withParsed/withTree makes must be deleted on every path out of it.
    const parser = await parserFor("typescript", "big.test.ts");
    const made: Array<{ deleted: number }> = [];
    const parse = parser.parse.bind(parser);
    const spy = vi.spyOn(parser, "parse").mockImplementation((...args: Parameters<Parser["parse"]>) => {
      const tree = parse(...args);
      if (tree) {
        const record = { deleted: 0 };
        made.push(record);
        const free = tree.delete.bind(tree);
        tree.delete = () => {
          record.deleted++;
          free();
        };
      }
      return tree;
    });
    try {
      expect(await withParsed("typescript", "big.test.ts", BIG, (root) => root.namedChildCount)).toBe(1);
      await expect(
        withParsed("typescript", "big.test.ts", BIG, () => {
          throw new Error("the reader failed");
        }),
      ).rejects.toThrow("the reader failed");
      expect(await withParsed("typescript", "bad.ts", "const = ;", () => "parsed")).toBeUndefined();
      expect(await withTree("typescript", "bad.ts", "const = ;", (root) => root.hasError)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(made.map((t) => t.deleted)).toEqual([1, 1, 1, 1]);
    // And the parser still works after all of it.
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
