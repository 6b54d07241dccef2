import { posix } from "node:path";
import type { LogParserName } from "../parsers/index.js";

/** The JavaScript test runners acilab runs a repository's tests with (node's own is node-tap). */
export type NodeRunnerName = "mocha" | "jest" | "vitest" | "ava" | "tap";

interface RunnerDef {
  logParser: LogParserName;
  /** argv before the repository's own flags; the runner's bin is on PATH from the environment. */
  head: string[];
  /** argv after them: the machine-readable reporter, no watch mode, no coverage gate. */
  tail: (devVersion: number | undefined) => string[];
  /** Flags of the runner that take a value as the next word (kept with it). */
  valueFlags: ReadonlySet<string>;
  /** Flags acilab sets itself or that would change what the log is (reporters, watch, coverage). */
  dropFlags: RegExp;
  /** Which files it collects by its own conventions. */
  collects: (path: string) => boolean;
}

const JS_FILE = /\.[cm]?[jt]sx?$/;
/** Folders of test trees that hold no tests of their own. */
const HELPER_DIR =
  /(^|\/)(fixtures?|helpers?|support|utils|__fixtures__|__mocks__|__snapshots__|tap-snapshots|snapshots|samples?|node_modules|dist)\//;
const TEST_DIR = /(^|\/)(test|tests|__tests__)\//;
const NAMED_TEST = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** `*.test.js`, `*.spec.ts`, `__tests__/x.js`: what jest and vitest collect. */
function namedTest(path: string): boolean {
  return (
    !HELPER_DIR.test(path) &&
    (NAMED_TEST.test(path) || (/(^|\/)__tests__\//.test(path) && JS_FILE.test(path)))
  );
}

/** The above, files of a test/ or tests/ folder, and a root test.js: what mocha, ava and tap collect. */
function testTreeFile(path: string): boolean {
  const base = posix.basename(path);
  if (!JS_FILE.test(path) || base.endsWith(".d.ts") || base.startsWith("_") || HELPER_DIR.test(path))
    return false;
  return NAMED_TEST.test(path) || TEST_DIR.test(path) || /^test\.[cm]?[jt]s$/.test(path);
}

const RUNNERS: Record<NodeRunnerName, RunnerDef> = {
  mocha: {
    logParser: "mocha-json",
    head: ["mocha"],
    tail: () => ["--reporter", "json"],
    valueFlags: new Set([
      "--require",
      "-r",
      "--ui",
      "-u",
      "--timeout",
      "-t",
      "--slow",
      "-s",
      "--file",
      "--extension",
      "--config",
      "--package",
      "--ignore",
      "--exclude",
      "--retries",
      "--node-option",
      "-n",
      "--loader",
    ]),
    dropFlags:
      /^(--reporter|-R|--reporter-options?|-O|--watch|-w|--watch-files|--watch-ignore|--spec|--parallel|-p|--forbid-only)(=|$)/,
    collects: testTreeFile,
  },
  jest: {
    logParser: "jest-json",
    head: ["jest"],
    tail: () => ["--ci", "--json", "--watchAll=false", "--coverage=false"],
    valueFlags: new Set([
      "--config",
      "-c",
      "--env",
      "--testEnvironment",
      "--rootDir",
      "--roots",
      "--setupFiles",
      "--setupFilesAfterEnv",
      "--preset",
      "--testTimeout",
      "--maxWorkers",
      "-w",
      "--selectProjects",
    ]),
    dropFlags:
      /^(--json|--outputFile|--watch|--watchAll|--coverage|--collectCoverage|--ci|--reporters|--silent|--verbose)(=|$)/,
    collects: namedTest,
  },
  vitest: {
    logParser: "jest-json",
    head: ["vitest", "run"],
    tail: () => ["--reporter=json", "--coverage.enabled=false"],
    valueFlags: new Set([
      "--config",
      "-c",
      "--root",
      "-r",
      "--dir",
      "--environment",
      "--pool",
      "--project",
      "--testTimeout",
      "--mode",
    ]),
    dropFlags: /^(--reporter|--outputFile|--watch|-w|--coverage|--ui|--run)(\.|=|$)/,
    collects: namedTest,
  },
  ava: {
    logParser: "node-tap",
    head: ["ava"],
    tail: () => ["--tap"],
    valueFlags: new Set([
      "--match",
      "-m",
      "--timeout",
      "-T",
      "--concurrency",
      "-c",
      "--node-arguments",
      "--config",
    ]),
    dropFlags: /^(--tap|-t|--watch|-w|--verbose|-v|--reporter)(=|$)/,
    collects: testTreeFile,
  },
  tap: {
    logParser: "node-tap",
    head: ["tap"],
    // tap 18 fails a run whose coverage is not full unless told not to measure it; earlier taps spell it
    // --no-coverage. One file at a time: files run in parallel are reported as buffered subtests
    // (`ok 1 - test/a.js # time=… {`), which name no file the TAP reader sees (ids ` > range parsing > …`).
    tail: (v) => [
      "--reporter=tap",
      v !== undefined && v < 18 ? "--no-coverage" : "--disable-coverage",
      "--jobs=1",
    ],
    valueFlags: new Set([
      "--timeout",
      "-t",
      "--jobs",
      "-j",
      "--node-arg",
      "--before",
      "--after",
      "--plugin",
      "--grep",
      "-g",
    ]),
    dropFlags:
      /^(--reporter|-R|--coverage-report|--watch|-w|--check-coverage|--100|--no-coverage|--disable-coverage|--allow-incomplete-coverage|--allow-empty-coverage|--jobs|-j|-J)(=|$)/,
    collects: testTreeFile,
  },
};

/** What the repository's package.json says of its tests. */
export interface PackageJson {
  scripts?: Record<string, string>;
  devDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

/** A detected runner: the argv the test files are appended to, the parser, and what was read. */
export interface NodeRunnerSetup {
  runner: NodeRunnerName;
  logParser: LogParserName;
  command: string[];
  collects: (path: string) => boolean;
  how: string;
}

/** Words of a shell command line (quotes honoured; no expansion), split into `&&`/`||`/`;`/`|` parts. */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  const re = /\s*(?:(&&|\|\||;|\|)|"((?:[^"\\]|\\.)*)"|'([^']*)'|((?:[^\s"'&|;\\]|\\.)+))/g;
  let word = "";
  let inWord = false;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    const gap = m[0].length > 0 && /^\s/.test(m[0]);
    if ((gap || m[1]) && inWord) {
      commands.at(-1)?.push(word);
      word = "";
      inWord = false;
    }
    if (m[1]) commands.push([]);
    else {
      word += m[2] ?? m[3] ?? m[4] ?? "";
      inWord = true;
    }
    if (m[0].length === 0) re.lastIndex++;
  }
  if (inWord) commands.at(-1)?.push(word);
  return commands.filter((c) => c.length > 0);
}

const RUNNER_NAMES = Object.keys(RUNNERS) as NodeRunnerName[];

/** The runner a script runs, with the words after its name; `npm run x` is followed (3 deep). */
function scriptRunner(
  scripts: Record<string, string>,
  name: string,
  depth = 0,
): { runner: NodeRunnerName | "node"; args: string[]; script: string } | undefined {
  const line = scripts[name];
  if (line === undefined || depth > 3) return undefined;
  for (const words of shellCommands(line)) {
    const pm = words.findIndex((w) => w === "npm" || w === "pnpm" || w === "yarn");
    if (pm >= 0) {
      const rest = words.slice(pm + 1).filter((w) => !w.startsWith("-"));
      const target =
        rest[0] === "run" || rest[0] === "run-script"
          ? rest[1]
          : rest[0] === "test" || rest[0] === "t"
            ? "test"
            : rest[0];
      const found = target && target !== name ? scriptRunner(scripts, target, depth + 1) : undefined;
      if (found) return found;
      continue;
    }
    const at = words.findIndex((w) => (RUNNER_NAMES as string[]).includes(posix.basename(w)));
    if (at >= 0)
      return {
        runner: posix.basename(words[at] as string) as NodeRunnerName,
        args: words.slice(at + 1),
        script: name,
      };
    const node = words.findIndex((w) => posix.basename(w) === "node");
    if (node >= 0 && words.includes("--test")) return { runner: "node", args: [], script: name };
  }
  return undefined;
}

/** The repository's own flags for the runner: flags and their values, never its file arguments. */
export function keptFlags(runner: NodeRunnerName, args: readonly string[]): string[] {
  const def = RUNNERS[runner];
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith("-")) continue; // a file, folder or glob: acilab names the files
    const takesValue = !a.includes("=") && def.valueFlags.has(a) && i + 1 < args.length;
    if (def.dropFlags.test(a)) {
      if (takesValue) i++;
      continue;
    }
    kept.push(a);
    if (takesValue) kept.push(args[++i] as string);
  }
  return kept;
}

/** Lint and format steps a `pretest` may hold: a build is wanted before the tests, a lint is not. */
const LINT = /\b(eslint|xo|standard|prettier|biome|oxlint|tslint|lint)\b/;

function majorOf(range: string | undefined): number | undefined {
  const m = /(\d+)/.exec(range ?? "");
  return m ? Number(m[1]) : undefined;
}

/**
 * The runner of a package.json repository: the one its test script runs (followed through `npm run`),
 * else the one it depends on, with the script's own flags for it (`--require test/setup`, `--env node`)
 * and a machine-readable reporter. A `pretest` that builds (tshy, tsc) runs before each test run, as
 * `npm test` would; undefined when the tests are node's own runner's, or no runner is named.
 */
export function detectNodeRunner(pkg: PackageJson): NodeRunnerSetup | undefined {
  const scripts = pkg.scripts ?? {};
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const fromScript = scriptRunner(scripts, "test");
  if (fromScript?.runner === "node") return undefined;
  const runner = fromScript?.runner ?? RUNNER_NAMES.find((r) => deps[r] !== undefined);
  if (runner === undefined) return undefined;
  const def = RUNNERS[runner];
  const flags = fromScript ? keptFlags(runner, fromScript.args) : [];
  const argv = [...def.head, ...flags, ...def.tail(majorOf(deps[runner]))];
  const pretest = scripts.pretest !== undefined && !LINT.test(scripts.pretest);
  const command = pretest
    ? ["bash", "-c", 'npm run --silent pretest >&2 && exec "$@"', "run_tests", ...argv]
    : argv;
  const how = `${runner}${fromScript ? ` (from the "${fromScript.script}" script${flags.length > 0 ? `, with its ${flags.join(" ")}` : ""})` : " (a devDependency)"}${pretest ? `, after "npm run pretest" (${scripts.pretest})` : ""}`;
  return { runner, logParser: def.logParser, command, collects: def.collects, how };
}
