/**
 * Runs the real test runners on the sample projects and records their output as fixtures, so the
 * parsers stay tested on machines without go or cargo. Regenerate with:
 *
 *   node --import tsx test/parsers/capture.ts [fixture-name ...]
 *
 * Fixtures are fixtures/NAME.txt (not .log, which .gitignore drops). One whose runner is missing here
 * is left as it is (the script says so). The project's temp directory is written as `<root>` and the
 * repository as `<repo>`, so fixtures do not depend on where they were captured.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LogParserName } from "../../src/parsers/index.js";
import type { Need } from "../../src/testing/needs.js";
import {
  NODE_TESTS,
  type Project,
  PYTEST_INTERRUPTED,
  PYTEST_RA,
  PYTEST_SUBTESTS,
  PYTEST_VERBOSE,
  VITEST_TESTS,
  writeProject,
} from "./projects.js";
import { CARGO_COMPILE_ERROR, CARGO_TESTS, GO_TESTS } from "./projects-compiled.js";

const HERE = dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = join(HERE, "..", "..", "src", "parsers", "fixtures");
const REPO_ROOT = realpathSync(join(HERE, "..", ".."));
/** Generous for a cold cargo or go build on two busy cores; each run takes a few seconds. */
const CAPTURE_TIMEOUT_MS = 120_000;

export interface Capture {
  /** The fixture's file name without `.txt`. */
  name: string;
  parser: LogParserName;
  project: Project;
  /** What the machine must have to run it (the live test needs it; src/testing/needs.ts). */
  need: Need;
  /** Why this machine cannot run it (shown as the skip reason), or null when it can. */
  missing: () => string | null;
  /** The command line, run in the project's directory with stderr merged into stdout. */
  argv: () => string[];
  env?: (dir: string) => Record<string, string>;
  /** Extra setup after the files are written. */
  prepare?: (dir: string) => void;
}

function firstWorking(candidates: string[], check: string[]): string | null {
  for (const bin of candidates) {
    const probe = spawnSync(bin, check, { encoding: "utf8", timeout: 30_000 });
    if (probe.status === 0) return bin;
  }
  return null;
}

let python: string | null | undefined;
/** Debian's python3 first: it is the one every machine of this project has pytest for. */
export function pythonWithPytest(): string | null {
  python ??= firstWorking(["/usr/bin/python3", "python3"], ["-m", "pytest", "--version"]);
  return python;
}
let python9: string | null | undefined;
/** A python3 whose pytest is 9 or later (subtests are pytest's own from 9.0): PATH's, then pyenv's. */
export function pythonWithPytest9(): string | null {
  const pyenv = join(homedir(), ".pyenv", "versions");
  const candidates = [
    "python3",
    "/usr/bin/python3",
    ...(existsSync(pyenv) ? readdirSync(pyenv).map((v) => join(pyenv, v, "bin", "python3")) : []),
  ];
  python9 ??= firstWorking(candidates, [
    "-c",
    "import sys, pytest; sys.exit(int(pytest.__version__.split('.')[0]) < 9)",
  ]);
  return python9;
}
export const cargoBin = (): string | null =>
  firstWorking(["cargo", join(homedir(), ".cargo", "bin", "cargo")], ["--version"]);
export const goBin = (): string | null =>
  firstWorking(["go", "/usr/lib/go/bin/go", "/usr/local/go/bin/go"], ["version"]);
const VITEST = join(REPO_ROOT, "node_modules", ".bin", "vitest");

const PYTEST_ARGS = ["-m", "pytest", "--tb=no", "-p", "no:cacheprovider"];
const noPytest = () => (pythonWithPytest() ? null : "no python3 with pytest on this machine");

export const CAPTURES: Capture[] = [
  {
    name: "pytest-rA",
    parser: "pytest",
    project: PYTEST_RA,
    need: "python3",
    missing: noPytest,
    argv: () => [pythonWithPytest() ?? "python3", ...PYTEST_ARGS, "-rA", "--continue-on-collection-errors"],
  },
  {
    name: "pytest-v",
    parser: "pytest",
    project: PYTEST_VERBOSE,
    need: "python3",
    missing: noPytest,
    argv: () => [
      pythonWithPytest() ?? "python3",
      ...PYTEST_ARGS,
      "-v",
      "-rA",
      "--color=yes",
      "--continue-on-collection-errors",
    ],
  },
  {
    name: "pytest-interrupted",
    parser: "pytest",
    project: PYTEST_INTERRUPTED,
    need: "python3",
    missing: noPytest,
    argv: () => [pythonWithPytest() ?? "python3", ...PYTEST_ARGS, "-rA"],
  },
  {
    name: "pytest-subtests",
    parser: "pytest",
    project: PYTEST_SUBTESTS,
    need: "pytest9",
    missing: () => (pythonWithPytest9() ? null : "no python3 with pytest 9 or later on this machine"),
    argv: () => [pythonWithPytest9() ?? "python3", ...PYTEST_ARGS, "-rA"],
  },
  {
    name: "node-tap",
    parser: "node-tap",
    project: NODE_TESTS,
    need: "build",
    missing: () => null,
    argv: () => [process.execPath, "--test", "--test-reporter=tap", "t.test.mjs", "broken.test.mjs"],
  },
  {
    name: "node-spec",
    parser: "node-spec",
    project: NODE_TESTS,
    need: "build",
    missing: () => null,
    argv: () => [process.execPath, "--test", "--test-reporter=spec", "t.test.mjs", "broken.test.mjs"],
    env: () => ({ FORCE_COLOR: "1" }), // colour codes are part of what the parser must survive
  },
  {
    name: "vitest-json",
    parser: "jest-json",
    project: VITEST_TESTS,
    need: "npm",
    missing: () => (existsSync(VITEST) ? null : `vitest is not installed at ${VITEST} (run npm ci)`),
    argv: () => [VITEST, "run", "--root", ".", "--reporter=json"],
    prepare: (dir) => symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules")),
  },
  {
    name: "go-test-json",
    parser: "go-test-json",
    project: GO_TESTS,
    need: "go",
    missing: () => (goBin() ? null : "go is not installed (apt-get install golang-go to capture)"),
    argv: () => [goBin() ?? "go", "test", "-json", "./..."],
    // No network, no module downloads, no toolchain switch. The build cache stays go's default: a
    // cold one spends ~20 s compiling the standard library on every capture.
    env: () => ({
      GOFLAGS: "-mod=mod",
      GOPROXY: "off",
      GOTOOLCHAIN: "local",
      CGO_ENABLED: "0",
    }),
  },
  ...[
    { name: "cargo-test", project: CARGO_TESTS },
    { name: "cargo-compile-error", project: CARGO_COMPILE_ERROR },
  ].map(
    ({ name, project }): Capture => ({
      name,
      parser: "cargo-test",
      project,
      need: "cargo",
      missing: () => (cargoBin() ? null : "cargo is not on PATH or in ~/.cargo/bin"),
      argv: () => [cargoBin() ?? "cargo", "test", "--offline", "--no-fail-fast"],
      env: (dir) => ({
        CARGO_TARGET_DIR: join(dir, "target"),
        CARGO_TERM_COLOR: "never",
        RUST_BACKTRACE: "0",
      }),
    }),
  ),
];

/** Build the project in a fresh temp dir, run the command, return its merged output with the dir as `<root>`. */
export function runCapture(capture: Capture): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `acilab-capture-${capture.name}-`)));
  try {
    writeProject(dir, capture.project);
    capture.prepare?.(dir);
    const [cmd, ...args] = capture.argv();
    const run = spawnSync("sh", ["-c", 'exec "$0" "$@" 2>&1', cmd as string, ...args], {
      cwd: dir,
      encoding: "utf8",
      timeout: CAPTURE_TIMEOUT_MS,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? homedir(),
        LANG: "C.UTF-8",
        PYTHONDONTWRITEBYTECODE: "1",
        ...capture.env?.(dir),
      },
    });
    if (run.error) throw new Error(`capture ${capture.name}: could not run ${cmd}: ${run.error.message}`);
    return run.stdout.split(dir).join("<root>").split(REPO_ROOT).join("<repo>");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(names: string[]): void {
  for (const capture of CAPTURES) {
    if (names.length > 0 && !names.includes(capture.name)) continue;
    const missing = capture.missing();
    if (missing) {
      console.log(`skip  ${capture.name}: ${missing}; fixtures/${capture.name}.txt left as it is`);
      continue;
    }
    const log = runCapture(capture);
    writeFileSync(join(FIXTURES_DIR, `${capture.name}.txt`), log);
    console.log(`wrote fixtures/${capture.name}.txt (${log.length} chars)`);
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
