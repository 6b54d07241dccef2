import { describe, expect, it } from "vitest";
import { climbsOut, compileGlob, literalPrefix, rgTypeGlob } from "./globs.js";

function matches(pattern: string, path: string): boolean {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regex.test(path);
}

describe("compileGlob", () => {
  it("keeps * and ? inside one segment and lets ** span directories", () => {
    expect(matches("*.ts", "a.ts")).toBe(true);
    expect(matches("*.ts", "src/a.ts")).toBe(false);
    expect(matches("src/**/*.ts", "src/a.ts")).toBe(true);
    expect(matches("src/**/*.ts", "src/x/y/a.ts")).toBe(true);
    expect(matches("src/**", "src/x/y/a.ts")).toBe(true);
    expect(matches("**/a.ts", "a.ts")).toBe(true);
    expect(matches("a?.py", "ab.py")).toBe(true);
    expect(matches("a?.py", "a/.py")).toBe(false);
    expect(matches("*", ".env")).toBe(true);
  });

  it("supports classes, negation, alternatives and escapes", () => {
    expect(matches("[abc].py", "b.py")).toBe(true);
    expect(matches("[!abc].py", "b.py")).toBe(false);
    expect(matches("[a-c]x", "cx")).toBe(true);
    expect(matches("{src,lib}/**/*.{ts,tsx}", "lib/ui/button.tsx")).toBe(true);
    expect(matches("{src,lib}/**/*.{ts,tsx}", "test/a.ts")).toBe(false);
    expect(matches("\\*.md", "*.md")).toBe(true);
    expect(matches("\\*.md", "a.md")).toBe(false);
    expect(matches("a+b(1).txt", "a+b(1).txt")).toBe(true);
  });

  it("reports unclosed groups", () => {
    expect(compileGlob("src/[ab")).toMatchObject({ ok: false });
    expect(compileGlob("{a,b")).toMatchObject({ ok: false });
  });
});

describe("glob planning helpers", () => {
  it("finds the literal directories rg can start from", () => {
    expect(literalPrefix("src/api/**/*.ts")).toEqual(["src", "api"]);
    expect(literalPrefix("./src/*.ts")).toEqual(["src"]);
    expect(literalPrefix("*.ts")).toEqual([]);
    expect(literalPrefix("{src,lib}/*.ts")).toEqual([]);
  });

  it("hands rg only basename globs it reads the same way", () => {
    expect(rgTypeGlob("src/**/*.ts")).toBe("*.ts");
    expect(rgTypeGlob("*.{ts,tsx}")).toBe("*.{ts,tsx}");
    expect(rgTypeGlob("src/**")).toBeUndefined();
    expect(rgTypeGlob("a:b.txt")).toBeUndefined();
    expect(rgTypeGlob("{src/a,lib/b}.ts")).toBeUndefined();
  });

  it("spots globs that climb out", () => {
    expect(climbsOut("../x/*")).toBe(true);
    expect(climbsOut("src/../../x")).toBe(true);
    expect(climbsOut("src/..x/*")).toBe(false);
  });
});
