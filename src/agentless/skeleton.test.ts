import { describe, expect, it } from "vitest";
import { reproductionPath, segmentAround } from "./segments.js";
import { skeletonOf } from "./skeleton.js";

const PY = `"""Module."""
import math

class Box:
    """A box.

    More words.
    """

    def area(self, w, h):
        """Width times height."""
        return w * h

@cache
def f(x):
    return math.sqrt(x)
`;

const TS = `import { a } from "./a.ts";
export class Cache<K> {
  get(key: K): number {
    return 1;
  }
}
export const twice = (n: number): number => n * 2;
`;

describe("skeletons", () => {
  it("keeps Python headers and docstrings' first lines, elides bodies, names units with their lines", async () => {
    const s = await skeletonOf("pkg/m.py", PY);
    expect(s?.text).toContain('class Box:\n    """A box."""');
    expect(s?.text).toContain('    def area(self, w, h):\n        """Width times height."""\n        ...');
    expect(s?.text).toContain("@cache\ndef f(x):\n    ...");
    expect(s?.text).not.toContain("return");
    expect(s?.units).toEqual([
      { name: "Box", kind: "class", startLine: 4, endLine: 12 },
      { name: "Box.area", kind: "method", startLine: 10, endLine: 12 },
      { name: "f", kind: "function", startLine: 14, endLine: 16 },
    ]);
  });

  it("does TypeScript classes, methods and arrow functions", async () => {
    const s = await skeletonOf("src/c.ts", TS);
    expect(s?.text).toBe(
      'import { a } from "./a.ts";\nexport class Cache<K> {\n  get(key: K): number { … }\n}\nexport const twice = (n: number): number => { … }',
    );
    expect(s?.units.map((u) => u.name)).toEqual(["Cache", "Cache.get", "twice"]);
  });

  it("has none for a file tree-sitter does not parse here", async () => {
    expect(await skeletonOf("README.md", "# hi")).toBeUndefined();
  });
});

describe("between stages", () => {
  it("shows the lines around the chosen ranges, merged, the rest marked", () => {
    const text = Array.from({ length: 50 }, (_, i) => `l${i + 1}`).join("\n");
    const shown = segmentAround(text, [
      { path: "x", start: 20, end: 20 },
      { path: "x", start: 25, end: 26 },
    ]).split("\n");
    expect(shown[0]).toBe("…");
    expect(shown[1]).toBe("l10");
    expect(shown.at(-2)).toBe("l36");
    expect(shown.at(-1)).toBe("…");
  });

  it("names the reproduction test like the repository's own tests", () => {
    expect(reproductionPath(["tests/test_core.py", "tests/test_text.py"], "python").path).toBe(
      "tests/test_reproduction.py",
    );
    expect(reproductionPath(["test/lru.test.ts"], "typescript").path).toBe("test/reproduction.test.ts");
    expect(reproductionPath(["pkg/x_test.go"], "go").path).toBe("pkg/reproduction_test.go");
    expect(reproductionPath([], "python")).toEqual({
      path: "tests/test_reproduction.py",
      example: undefined,
    });
  });
});
