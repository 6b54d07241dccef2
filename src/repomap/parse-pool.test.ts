import { describe, expect, it } from "vitest";
import { ParsePool } from "./parse-pool.js";
import { tagsOf } from "./tags.js";

const FILES: Array<[string, string]> = [
  ["a.py", "class Cart:\n    def add(self, item):\n        return helper(item)\n"],
  ["b.ts", "export function helper(x: number) { return x; }\n"],
  ["c.go", "package c\n\nfunc Run() {}\n"],
  ["d.rs", "pub struct Ledger {}\nimpl Ledger { pub fn total(&self) {} }\n"],
  ["e.md", "# not code\n"],
];

describe("ParsePool", () => {
  it("gives the same tags as parsing in this thread", async () => {
    const pool = new ParsePool(2);
    try {
      const pooled = await Promise.all(FILES.map(([path, text]) => pool.tags(path, text)));
      const local = await Promise.all(FILES.map(([path, text]) => tagsOf(path, text)));
      expect(pooled).toEqual(local);
      expect(pooled[4]).toBeUndefined();
      expect(pooled[0]?.definitions.map((d) => d.name)).toEqual(["Cart", "add"]);
    } finally {
      await pool.close();
    }
  });

  it("parses in this thread when its workers are gone", async () => {
    const pool = new ParsePool(1);
    await pool.close();
    const tags = await pool.tags("b.ts", "export function helper() {}\n");
    expect(tags?.definitions[0]?.name).toBe("helper");
  });
});
