import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { areaGraph, areaOf, checkLayout, readSources, type Violation } from "./architecture.js";

const ROOT = join(import.meta.dirname, "..");
const CHECKED = ["src", "test", "bench"];

describe("the layout of src/", () => {
  it("keeps every rule: index-only imports, no area cycles, no benchmarks or test-only code in src/", () => {
    const messages = checkLayout(readSources(ROOT, CHECKED)).map((v) => `${v.rule}: ${v.message}`);
    expect(messages).toEqual([]);
  });
});

describe("docs/architecture.md", () => {
  it("lists every area with the areas it really imports, leaves first", () => {
    const doc = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
    const rows = [...doc.matchAll(/^\| `([a-z]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map((m) => ({
      area: m[1] as string,
      imports: (m[2] as string).trim(),
    }));
    const sources = readSources(ROOT, ["src"]);
    const graph = areaGraph(sources);
    // Every area, leaves included; `testing` holds test-only helpers, described under the table.
    const areas = new Set(sources.flatMap((f) => areaOf(f.path) ?? []));
    areas.delete("testing");
    expect(rows.map((r) => r.area).sort()).toEqual([...areas].sort());
    const seen = new Set<string>();
    for (const { area, imports } of rows) {
      const real = [...(graph.get(area) ?? [])].filter((a) => a !== "testing").sort();
      if (area !== "cli") expect(imports === "—" ? [] : imports.split(", "), area).toEqual(real);
      // Leaves first: an area imports only areas listed above it.
      for (const dep of real) expect(seen.has(dep), `${area} imports ${dep}, listed below it`).toBe(true);
      seen.add(area);
    }
  });
});

describe("checkLayout on a tree built to break each rule", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function tree(files: Record<string, string>): Violation[] {
    root = mkdtempSync(join(tmpdir(), "acilab-architecture-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return checkLayout(readSources(root, CHECKED));
  }

  const clean = {
    "src/a/index.ts": 'export { one } from "./one.js";\n',
    "src/a/one.ts": "export const one = 1;\n",
    "src/b/index.ts": 'import { one } from "../a/index.js";\nexport const two = one + 1;\n',
    "src/cli/main.ts": 'import { two } from "../b/index.js";\nexport const main = () => two;\n',
    "src/cli/index.ts": 'export { main } from "./main.js";\n',
  };

  it("accepts index-only imports between areas", () => {
    expect(tree(clean)).toEqual([]);
  });

  it("names the file and the import that reaches past another area's index", () => {
    const violations = tree({ ...clean, "src/b/index.ts": 'export { one } from "../a/one.js";\n' });
    expect(violations).toContainEqual({
      rule: "index-only",
      message:
        "src/b/index.ts imports src/a/one.ts: import src/a/index.js (export what is needed from there)",
    });
  });

  it("catches a deep import written as a dynamic import() or a re-export", () => {
    const violations = tree({
      ...clean,
      "src/b/index.ts": 'export * from "../a/one.js";\nexport const later = () => import("../a/one.js");\n',
    });
    expect(violations.filter((v) => v.rule === "index-only")).toHaveLength(2);
  });

  it("prints the cycle between areas", () => {
    const violations = tree({
      ...clean,
      "src/a/one.ts": 'import { two } from "../b/index.js";\nexport const one = two;\n',
    });
    expect(violations).toContainEqual({ rule: "cycle", message: "areas import each other: a → b → a" });
  });

  it("rejects benchmarks under src/ and files only tests reach", () => {
    const violations = tree({
      ...clean,
      "src/a/bench.ts": 'import { one } from "./one.js";\nexport const bench = one;\n',
      "src/a/capture.ts": "export const fixture = 1;\n",
      "src/a/capture.test.ts": 'import { fixture } from "./capture.js";\nexport const t = fixture;\n',
    });
    expect(violations.map((v) => v.rule)).toEqual(["no-bench-in-src", "unreachable"]);
    expect(violations[1]?.message).toContain("src/a/capture.ts is not reachable");
  });

  it("lets tests use their own area's internals and other areas' testing.ts, nothing else", () => {
    const violations = tree({
      ...clean,
      "src/a/testing.ts": 'import { one } from "./one.js";\nexport const fake = one;\n',
      "src/b/own.test.ts": 'import { two } from "./index.js";\nimport { fake } from "../a/testing.js";\n',
      "src/b/deep.test.ts": 'import { one } from "../a/one.js";\n',
      "bench/a.ts": 'import { one } from "../src/a/one.js";\n',
    });
    expect(violations.map((v) => v.message)).toEqual([
      "src/b/deep.test.ts imports src/a/one.ts: import src/a/index.js (export what is needed from there)",
      "bench/a.ts imports src/a/one.ts: import src/a/index.js (export what is needed from there)",
    ]);
  });

  it("requires an index.ts in every area", () => {
    const violations = tree({ ...clean, "src/c/lonely.ts": "export const c = 3;\n" });
    expect(violations).toContainEqual({
      rule: "missing-index",
      message: "src/c/ has no index.ts (its public surface)",
    });
  });
});

describe("README's area table", () => {
  it("names every area's folder, so a newcomer finds each one from the README", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("| area | folder |"), readme.indexOf("## Development"));
    const named = new Set([...table.matchAll(/`src\/([a-z]+)\/`/g)].map((m) => m[1]));
    const areas = new Set(readSources(ROOT, ["src"]).flatMap((f) => areaOf(f.path) ?? []));
    expect([...areas].filter((a) => !named.has(a)).sort()).toEqual([]);
    expect([...named].filter((a) => a !== undefined && !areas.has(a)).sort()).toEqual([]);
  });
});
