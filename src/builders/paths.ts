import { posix } from "node:path";
import picomatch from "picomatch";
import { languageOf, type SyntaxLanguage } from "../syntax/index.js";

export type BuilderLanguage = SyntaxLanguage;
export { languageOf };

/** Agent instruction files: a task's checkout must not carry the maintainers' notes to agents. */
export const AGENT_FILES: ReadonlySet<string> = new Set(["AGENTS.md", "CLAUDE.md"]);

/**
 * A test file by the conventions SPEC §5 lists for touches_tests: a `test`/`tests`/`__tests__`
 * folder, `test_*.py`, `*_test.py`, `conftest.py`, `*.test.*`, `*.spec.*` — and one test file at the
 * root (`test.py`, `tests.py`, `test.js`: python-slugify's and many small packages' whole suite).
 */
export function isTestPath(path: string): boolean {
  const parts = path.split("/");
  const base = parts[parts.length - 1] ?? "";
  if (parts.slice(0, -1).some((p) => p === "test" || p === "tests" || p === "__tests__")) return true;
  return (
    /^test_.*\.py$/.test(base) ||
    /_test\.py$/.test(base) ||
    base === "conftest.py" ||
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(base) ||
    // ava's and many small packages' one test file at the root
    /^test\.[cm]?[jt]s$/.test(path) ||
    ROOT_PY_TESTS.test(path)
  );
}

/** A repository's whole Python suite in one root file: pytest collects it when it is named. */
const ROOT_PY_TESTS = /^tests?\.py$/;

/** A file whose test functions a runner collects (conftest.py and helpers in tests/ hold none). */
export function isTestModule(path: string): boolean {
  const base = posix.basename(path);
  if (base.endsWith(".py"))
    return /^test_.*\.py$/.test(base) || /_test\.py$/.test(base) || ROOT_PY_TESTS.test(path);
  return /\.(test|spec)\.[cm]?[jt]sx?$/.test(base);
}

/**
 * Top-level folders whose code is not the library: examples, documentation (Sphinx's conf.py),
 * benchmarks, build scripts. A fix's change there is not part of its source patch, and no bug is
 * planted there. Only at the root: `src/pkg/scripts/` is the package's own code.
 */
const NOT_SOURCE_DIRS: ReadonlySet<string> = new Set([
  "examples",
  "example",
  "docs",
  "doc",
  "bench",
  "benchmarks",
  "scripts",
  ".github",
]);

/** Code that is not a test: what a fix's "source part" and a mutation may touch. */
export function isSourcePath(path: string, tests: Pick<TestPaths, "isTestPath"> = { isTestPath }): boolean {
  if (languageOf(path) === undefined || tests.isTestPath(path)) return false;
  const dirs = path.split("/").slice(0, -1);
  if (dirs.includes("node_modules") || NOT_SOURCE_DIRS.has(dirs[0] ?? "")) return false;
  // Packaging at the root is configuration, not the library (setup.py, conftest-like tool files).
  return !(dirs.length === 0 && /^(setup|noxfile|fabfile|tasks)\.py$/.test(path));
}

export function isAgentFile(path: string): boolean {
  return AGENT_FILES.has(posix.basename(path));
}

/**
 * Which files hold tests: the conventions above, or the repository's own word for it
 * (`--test-files GLOB`, repeatable): a file a glob matches is a test module — its tests are run and
 * graded — and a test file; the conventions' other test files (fixtures, helpers, conftest.py) stay
 * test files, never source.
 */
export interface TestPaths {
  isTestPath(path: string): boolean;
  isTestModule(path: string): boolean;
  /** The globs given, for messages; empty for the conventions. */
  globs: readonly string[];
}

export const CONVENTIONAL_TEST_PATHS: TestPaths = { isTestPath, isTestModule, globs: [] };

export function testPaths(globs: readonly string[] = []): TestPaths {
  if (globs.length === 0) return CONVENTIONAL_TEST_PATHS;
  const named = picomatch([...globs], { dot: true });
  return {
    isTestPath: (p) => named(p) || isTestPath(p),
    isTestModule: (p) => named(p),
    globs,
  };
}
