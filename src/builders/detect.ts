import type { LogParserName } from "../parsers/index.js";
import { resolvePlaceholders } from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { detectNodeRunner, type NodeRunnerName, type PackageJson } from "./node-runners.js";
import { type BuilderLanguage, CONVENTIONAL_TEST_PATHS, languageOf, type TestPaths } from "./paths.js";
import { PYTEST_CONFIGS, pytestConfig, withoutCoverage } from "./pytest-config.js";

/** How a repository's tests run: an argv prefix the test files are appended to, and how to read the log. */
export interface TestSetup {
  language: BuilderLanguage;
  logParser: LogParserName;
  /** argv run from the repository root; the test files to run are appended. May hold `{tsx}`. */
  command: string[];
  /** Every test module of the repository's language (repository-relative). */
  testFiles: string[];
  /** One line for a person: what was detected and why. */
  how: string;
  /** Given by hand (--test-command): the same at every commit. */
  overridden?: boolean;
  /** The runner is a dependency of the repository (mocha, jest…): its tests need an environment. */
  runner?: NodeRunnerName;
}

export interface TestCommandOverride {
  /** A shell command line; the test files are passed to it as "$@". */
  command: string;
  logParser?: LogParserName;
}

const PYTEST = ["python3", "-m", "pytest", "-rA", "-p", "no:cacheprovider"];
const NODE_TAP = ["node", "--test", "--test-reporter=tap"];
const NODE_TAP_TS = ["node", "--import", "{tsx}", "--test", "--test-reporter=tap"];

export class NoTestCommandError extends Error {}

/**
 * Pick the test command: `--test-command` wins; else pytest for a Python repository and node's test
 * runner for a package.json one (through tsx when its tests are TypeScript). `files` is the
 * repository's tracked file list.
 */
export function detectTestSetup(
  repoDir: string,
  files: readonly string[],
  override?: TestCommandOverride,
  /** The text of the repository's config files that may hold pytest's settings (pytestConfig). */
  configs: Readonly<Record<string, string>> = {},
  paths: TestPaths = CONVENTIONAL_TEST_PATHS,
): TestSetup {
  const tests = (lang: BuilderLanguage) =>
    files.filter((f) => paths.isTestModule(f) && languageOf(f) === lang);
  const py = tests("python");
  const ts = tests("typescript");
  const js = tests("javascript");
  const hasPackageJson = files.includes("package.json");
  const nodeTests = ts.length > 0 ? ts : js;
  const pythonWins = py.length > 0 && (!hasPackageJson || py.length >= nodeTests.length);
  if (override) {
    const parser = override.logParser ?? (/\bpytest\b/.test(override.command) ? "pytest" : "node-tap");
    const language: BuilderLanguage =
      parser === "pytest" ? "python" : ts.length > 0 ? "typescript" : "javascript";
    return {
      language,
      logParser: parser,
      command: ["bash", "-c", `${override.command} "$@"`, "run_tests"],
      testFiles: language === "python" ? py : nodeTests,
      how: `--test-command given (log parser ${parser})`,
      overridden: true,
    };
  }
  if (pythonWins) {
    const src = srcLayout(files);
    const config = src ? pytestConfig(files, configs) : undefined;
    // pytest's own `pythonpath` setting (pytest ≥ 7) puts src/ on sys.path: the tests import the
    // package from the working tree, as an editable install would, with no install step. pytest 7.2
    // reads `-o pythonpath` only with a config file, so the one that holds its settings is named.
    const onPath = src && config ? ["-c", config, "-o", "pythonpath=src"] : [];
    const addopts = withoutCoverage(files, configs);
    const layout = !src
      ? ""
      : config
        ? `; src layout (${src}): src/ on the path`
        : `; src layout (${src}), but no pyproject.toml, setup.cfg or tox.ini to carry pythonpath: install it in an environment`;
    return {
      language: "python",
      logParser: "pytest",
      command: [...PYTEST, ...onPath, ...(addopts === undefined ? [] : ["-o", `addopts=${addopts}`])],
      testFiles: py,
      how: `pytest: ${py.length} Python test module(s)${layout}${addopts === undefined ? "" : "; coverage options dropped from addopts"}`,
    };
  }
  const runner = hasPackageJson ? detectNodeRunner(packageJson(configs["package.json"])) : undefined;
  if (runner) {
    // The runner's own idea of a test file (mocha's test/, ava's test.js), unless the user named them.
    const testFiles = files.filter(paths.globs.length > 0 ? paths.isTestModule : runner.collects);
    if (testFiles.length > 0) {
      const typescript = testFiles.some((f) => languageOf(f) === "typescript");
      return {
        language: typescript ? "typescript" : "javascript",
        logParser: runner.logParser,
        command: runner.command,
        testFiles,
        how: `${runner.how}: ${testFiles.length} test file(s)`,
        runner: runner.runner,
      };
    }
  }
  if (hasPackageJson && nodeTests.length > 0) {
    const typescript = ts.length > 0;
    return {
      language: typescript ? "typescript" : "javascript",
      logParser: "node-tap",
      command: typescript ? NODE_TAP_TS : NODE_TAP,
      testFiles: nodeTests,
      how: `node --test (tap reporter${typescript ? ", tsx loader" : ""}): ${nodeTests.length} test file(s)`,
    };
  }
  if (paths.globs.length > 0)
    throw new NoTestCommandError(
      `no test command found in ${repoDir}: --test-files ${paths.globs.join(", ")} matches no Python, JavaScript or TypeScript file at this commit — ` +
        "check the globs against `git ls-files` (they are matched from the repository's root), or leave them out to use the conventions",
    );
  throw new NoTestCommandError(
    `no test command found in ${repoDir}: no Python test modules (test_*.py, *_test.py, a root test.py) and no package.json ` +
      'with *.test.ts/*.test.js files — name the test files with --test-files GLOB, or pass --test-command "…" (test files are appended as arguments) and --log-parser pytest|node-tap',
  );
}

function packageJson(text: string | undefined): PackageJson {
  try {
    const parsed: unknown = JSON.parse(text ?? "{}");
    return parsed !== null && typeof parsed === "object" ? (parsed as PackageJson) : {};
  } catch {
    return {}; // a package.json that is not JSON names no runner; node's own is tried
  }
}

/**
 * The package of a src layout (`src/<pkg>/__init__.py`, or `src/<module>.py`) when the root has no
 * package of that name; undefined for a flat layout.
 */
export function srcLayout(files: readonly string[]): string | undefined {
  const inSrc = files
    .map((f) => /^src\/([A-Za-z_][\w]*)(?:\/__init__\.py|\.py)$/.exec(f)?.[1])
    .filter((p): p is string => p !== undefined && p !== "conftest");
  return inSrc.find((p) => !files.includes(`${p}/__init__.py`) && !files.includes(`${p}.py`));
}

/** The argv that runs `files`, with acilab's placeholders (`{tsx}`) resolved for this machine. */
export function testArgv(setup: Pick<TestSetup, "command">, files: readonly string[]): string[] {
  return resolvePlaceholders([...setup.command, ...files]);
}

/** Detect the test setup of the repository at `repo` from the files its HEAD tracks. */
export async function detectRepo(
  repo: string,
  override?: TestCommandOverride,
  rev = "HEAD",
  paths: TestPaths = CONVENTIONAL_TEST_PATHS,
): Promise<TestSetup> {
  let listing: string;
  try {
    listing = await git(repo, ["ls-tree", "-r", "--name-only", "-z", rev]);
  } catch (err) {
    throw new Error(
      `cannot read ${repo} as a git repository with a commit (${(err as Error).message.split("\n")[0]}) — give --repo a git checkout`,
    );
  }
  const files = listing.split("\0").filter(Boolean);
  const configs: Record<string, string> = {};
  for (const name of [...PYTEST_CONFIGS.map(([n]) => n), "package.json"])
    if (files.includes(name)) configs[name] = await git(repo, ["show", `${rev}:${name}`]).catch(() => "");
  return detectTestSetup(repo, files, override, configs, paths);
}
