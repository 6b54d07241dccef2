import { describe, expect, it } from "vitest";
import type { Definition } from "./definitions.js";
import type { RankedDefinition } from "./rank.js";
import { estimateTokens, fitToBudget, renderDefinitions } from "./render.js";

function ranked(path: string, d: Partial<Definition> & { name: string; line: number }): RankedDefinition {
  return { path, rank: 0, definition: { kind: "function", signature: `def ${d.name}():`, ...d } };
}

describe("renderDefinitions", () => {
  it("shows each file's path, its lines with │, ⋮ for what is left out, members under their header", () => {
    const text = renderDefinitions(
      [
        ranked("pkg/cart.py", {
          name: "add",
          line: 9,
          kind: "method",
          signature: "    def add(self, item):",
          parent: "Cart",
          context: { line: 4, signature: "class Cart:" },
        }),
        ranked("pkg/cart.py", { name: "total", line: 10, kind: "method", signature: "    def total(self):" }),
        ranked("a.py", { name: "main", line: 1 }),
      ],
      new Map([
        ["a.py", 1],
        ["pkg/cart.py", 20],
      ]),
    );
    expect(text).toBe(
      [
        "a.py:",
        "│def main():",
        "pkg/cart.py:",
        "⋮",
        "│class Cart:",
        "⋮",
        "│    def add(self, item):",
        "│    def total(self):",
        "⋮",
        "",
      ].join("\n"),
    );
  });

  it("is empty for no definitions", () => {
    expect(renderDefinitions([])).toBe("");
  });
});

describe("fitToBudget", () => {
  const many = Array.from({ length: 500 }, (_, i) =>
    ranked(`src/file${i % 40}.py`, {
      name: `function_number_${i}`,
      line: i + 1,
      signature: `def function_number_${i}(a, b, c):`,
    }),
  );

  it("stays within the budget, and a bigger budget shows more definitions", () => {
    let previous = -1;
    for (const budget of [0, 64, 256, 1024, 4096]) {
      const fitted = fitToBudget(many, budget);
      expect(estimateTokens(fitted.text)).toBeLessThanOrEqual(budget);
      expect(fitted.definitions).toBeGreaterThan(previous);
      previous = fitted.definitions;
    }
  });

  it("takes the best-ranked prefix: the largest that fits", () => {
    const fitted = fitToBudget(many, 300);
    expect(fitted.text).toBe(renderDefinitions(many.slice(0, fitted.definitions)));
    expect(estimateTokens(renderDefinitions(many.slice(0, fitted.definitions + 1)))).toBeGreaterThan(300);
  });

  it("shows everything when everything fits", () => {
    expect(fitToBudget(many.slice(0, 3), 10_000).definitions).toBe(3);
  });
});
