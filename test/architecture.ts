/**
 * The layout rules of src/, checked over the source text (test/architecture.test.ts runs them):
 * each `src/<area>/` is one concern with an `index.ts` for its public surface; other areas, tests of
 * other areas and benchmarks import that surface only; the areas' import graph has no cycle; and
 * src/ holds library code only — no benchmarks, no fixture generators that only tests use.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import ts from "typescript";

/** The folder of test helpers every test may import (time limits, process probes). */
const SHARED_TEST_AREA = "testing";

export interface SourceFile {
  /** Path from the checkout root, with forward slashes: `src/eval/grade.ts`. */
  path: string;
  /** The relative imports (static, re-exports, dynamic), resolved to checkout paths of .ts files. */
  imports: string[];
}

export interface Violation {
  rule: "index-only" | "cycle" | "no-bench-in-src" | "unreachable" | "missing-index";
  message: string;
}

function walk(root: string, dir: string, out: string[]): void {
  for (const name of readdirSync(join(root, dir)).sort()) {
    if (name === "node_modules" || name === "fixtures") continue;
    const rel = dir === "" ? name : `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) walk(root, rel, out);
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(rel);
  }
}

/** Every .ts file under `dirs` of `root`, with its relative imports resolved. */
export function readSources(root: string, dirs: readonly string[]): SourceFile[] {
  const paths: string[] = [];
  for (const dir of dirs) {
    try {
      if (statSync(join(root, dir)).isDirectory()) walk(root, dir, paths);
    } catch {
      // A checkout without bench/ or test/ is still checkable.
    }
  }
  return paths.map((path) => {
    const info = ts.preProcessFile(readFileSync(join(root, path), "utf8"), true, true);
    const imports = info.importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith("./") || spec.startsWith("../"))
      .map((spec) =>
        normalize(join(dirname(path), spec.replace(/\.js$/, ".ts")))
          .split(sep)
          .join("/"),
      );
    return { path, imports };
  });
}

/** `src/eval/grade.ts` → `eval`; null outside src/ (tests under test/, benchmarks). */
export function areaOf(path: string): string | null {
  const parts = path.split("/");
  return parts[0] === "src" && parts.length > 2 ? (parts[1] ?? null) : null;
}

const isTest = (path: string) => path.endsWith(".test.ts");
/** A test helper: `testing.ts`, anything in a `testing/` folder, or the shared src/testing/ area. */
export const isTestHelper = (path: string) =>
  path.split("/").pop() === "testing.ts" || path.split("/").slice(0, -1).includes(SHARED_TEST_AREA);
const isLibrary = (path: string) => path.startsWith("src/") && !isTest(path) && !isTestHelper(path);
const isIndex = (path: string) => {
  const area = areaOf(path);
  return area !== null && path === `src/${area}/index.ts`;
};

/** What `file` may import from another area (or from src/, for files outside it). */
function allowedAcross(file: string, target: string): boolean {
  if (isIndex(target)) return true;
  // Tests and helpers may use other areas' test helpers; library code never does.
  return !isLibrary(file) && isTestHelper(target);
}

export function areaGraph(files: readonly SourceFile[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = areaOf(file.path);
    if (from === null || !isLibrary(file.path)) continue;
    for (const target of file.imports) {
      const to = areaOf(target);
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Set<string>();
      edges.add(to);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Each cycle of the graph once, as the areas along it (`a → b → a`). */
export function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const done = new Set<string>();
  const visit = (node: string, path: string[]) => {
    if (done.has(node)) return;
    const at = path.indexOf(node);
    if (at >= 0) {
      const cycle = [...path.slice(at), node];
      const key = [...cycle.slice(0, -1)].sort().join(",");
      if (!seen.has(key)) {
        seen.add(key);
        cycles.push(cycle);
      }
      return;
    }
    for (const next of [...(graph.get(node) ?? [])].sort()) visit(next, [...path, node]);
  };
  for (const node of [...graph.keys()].sort()) {
    visit(node, []);
    done.add(node);
  }
  return cycles;
}

/** Files reachable from the areas' indexes through library imports. */
function reachable(files: readonly SourceFile[]): Set<string> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const todo = files.map((f) => f.path).filter(isIndex);
  const out = new Set<string>();
  while (todo.length > 0) {
    const path = todo.pop() as string;
    if (out.has(path)) continue;
    out.add(path);
    for (const target of byPath.get(path)?.imports ?? []) if (isLibrary(target)) todo.push(target);
  }
  return out;
}

export function checkLayout(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  const paths = new Set(files.map((f) => f.path));
  const areas = new Set([...paths].map(areaOf).filter((a): a is string => a !== null));
  for (const file of files) {
    // test/<area>/ holds the slow tests of that area: they are its tests, like src/<area>/*.test.ts.
    const testOf = file.path.split("/")[0] === "test" ? file.path.split("/")[1] : undefined;
    const from = areaOf(file.path) ?? (testOf !== undefined && areas.has(testOf) ? testOf : null);
    for (const target of file.imports) {
      const to = areaOf(target);
      if (to === null || to === from) continue;
      if (!allowedAcross(file.path, target))
        violations.push({
          rule: "index-only",
          message: `${file.path} imports ${target}: import src/${to}/index.js (export what is needed from there)`,
        });
    }
  }
  for (const cycle of findCycles(areaGraph(files)))
    violations.push({ rule: "cycle", message: `areas import each other: ${cycle.join(" → ")}` });
  for (const path of paths) {
    if (path.startsWith("src/") && /(^|\/)bench(\.test)?\.ts$/.test(path))
      violations.push({ rule: "no-bench-in-src", message: `${path} is a benchmark: move it under bench/` });
  }
  const live = reachable(files);
  for (const path of paths) {
    if (isLibrary(path) && !live.has(path) && !/(^|\/)bench(\.test)?\.ts$/.test(path))
      violations.push({
        rule: "unreachable",
        message: `${path} is not reachable from any area's index.ts: if only tests or benchmarks use it (a fixture generator), move it under test/ or bench/ or name it testing.ts`,
      });
  }
  for (const area of [...areas].sort()) {
    if (area !== SHARED_TEST_AREA && !paths.has(`src/${area}/index.ts`))
      violations.push({
        rule: "missing-index",
        message: `src/${area}/ has no index.ts (its public surface)`,
      });
  }
  return violations;
}
