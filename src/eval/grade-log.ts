import {
  LOG_PARSERS,
  type LogParserName,
  lookupStatus,
  suiteRan,
  type TestStatus,
  type TestStatusMap,
} from "../parsers/index.js";
import type { GradingRules, Instance, InstanceReport } from "../swebench/index.js";
import {
  END_TEST_OUTPUT,
  gradeSwebenchLog,
  isResolved,
  START_TEST_OUTPUT,
  scoreStatuses,
  TEST_EXIT_CODE,
} from "../swebench/index.js";
import { type Canary, type CanaryCheck, checkCanaries } from "./canaries/index.js";
import { checkTwins, type Twin, type TwinCheck } from "./twins/index.js";

/** What the harness saw of one test run: everything the runner printed, and how it ended. */
export interface TestRun {
  output: string;
  /** null when a signal ended it (then `signal` names it). */
  exitCode: number | null;
  signal: string | null;
}

/** The tests an instance is graded on, and how its log reads. */
export type GradedTests = Pick<Instance, "FAIL_TO_PASS" | "PASS_TO_PASS" | "log_parser">;

/** A verdict on one log. */
export interface LogGrade {
  tests_status: InstanceReport["tests_status"];
  resolved: boolean;
  /** Why the log is not trusted, or null. */
  rejected: string | null;
  /** The exit code the log records (128 + n for signal n), or null. */
  exitCode: number | null;
  /** How many test results the log holds (the parser's count, canaries included). */
  testsInLog: number;
  canaries: CanaryCheck | null;
  twins: TwinCheck | null;
}

const SIGNALS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
  SIGXCPU: 24,
  SIGXFSZ: 25,
};

/**
 * test_output.txt: the run between SWE-bench's markers, then its exit code, as SWE-bench's eval
 * script writes them — but written here, by the harness, around what the process printed, so nothing
 * the tests print can move them. A signal is recorded as 128 + its number, the shell's convention.
 */
export function formatTestOutput(run: TestRun): string {
  const code = run.exitCode ?? 128 + (SIGNALS[run.signal ?? ""] ?? 0);
  const body = run.output.endsWith("\n") || run.output === "" ? run.output : `${run.output}\n`;
  return `${START_TEST_OUTPUT}\n${body}${END_TEST_OUTPUT}\n${TEST_EXIT_CODE}: ${code}\n`;
}

/**
 * Read a harness-written log: the output runs from the first start marker to the last end marker
 * (a test that prints an end marker only adds a line to its own output) and the exit code is the
 * last one after that end marker.
 */
export function readTestOutput(log: string): { output: string; exitCode: number | null } | { error: string } {
  const lines = log.split("\n");
  const start = lines.indexOf(START_TEST_OUTPUT);
  const end = lines.lastIndexOf(END_TEST_OUTPUT);
  if (start < 0 || end < start)
    return {
      error: `the log has no "${start < 0 ? START_TEST_OUTPUT : END_TEST_OUTPUT}" line: it is not a test run acilab recorded`,
    };
  const codes = lines
    .slice(end + 1)
    .map((l) => new RegExp(`^${TEST_EXIT_CODE}: (-?\\d+)$`).exec(l))
    .filter((m) => m !== null);
  const code = codes.at(-1)?.[1];
  return {
    output: lines.slice(start + 1, end).join("\n"),
    exitCode: code === undefined ? null : Number(code),
  };
}

/**
 * The exit status each runner gives a run in which some test failed and nothing else went wrong:
 * one code, or for mocha the number of failures (1–255).
 */
const FAILED_TESTS_EXIT: Record<LogParserName, { fits: (code: number) => boolean; told: string }> = {
  pytest: { fits: (c) => c === 1, told: "1" },
  "node-tap": { fits: (c) => c === 1, told: "1" },
  "node-spec": { fits: (c) => c === 1, told: "1" },
  "jest-json": { fits: (c) => c === 1, told: "1" },
  "mocha-json": { fits: (c) => c >= 1 && c <= 127, told: "its failure count" },
  "go-test-json": { fits: (c) => c === 1, told: "1" },
  "cargo-test": { fits: (c) => c === 101, told: "101" },
  // bin/test and runtests.py exit with `not ok` / `bool(failures)`; tox passes pytest's 1 on.
  sympy: { fits: (c) => c === 1, told: "1" },
  django: { fits: (c) => c === 1, told: "1" },
  "pytest-options": { fits: (c) => c === 1, told: "1" },
  "pytest-v2": { fits: (c) => c === 1, told: "1" },
  matplotlib: { fits: (c) => c === 1, told: "1" },
  seaborn: { fits: (c) => c === 1, told: "1" },
};

/**
 * Grade one log (test_output.txt as formatTestOutput writes it, or as SWE-bench's harness does) on
 * an instance's tests. Pure: the same log and rules always give the same verdict, so a saved log can
 * be graded again. `canaries` are the tests planted for this run (hardened rules only).
 */
export function gradeLog(
  tests: GradedTests,
  log: string,
  options: { rules: GradingRules; canaries?: readonly Canary[]; twins?: readonly Twin[] },
): LogGrade {
  if (options.rules === "swebench") {
    const v = gradeSwebenchLog(log, tests, tests.log_parser);
    const read = readTestOutput(log);
    return {
      tests_status: v.tests_status,
      resolved: v.resolved,
      rejected: v.why,
      exitCode: "error" in read ? null : read.exitCode,
      testsInLog: v.statusMap.size,
      canaries: null,
      twins: null,
    };
  }
  return gradeHardened(tests, log, options.canaries ?? [], options.twins ?? []);
}

function gradeHardened(
  tests: GradedTests,
  log: string,
  canaries: readonly Canary[],
  twins: readonly Twin[],
): LogGrade {
  const expected = [...tests.FAIL_TO_PASS, ...tests.PASS_TO_PASS];
  const read = readTestOutput(log);
  const statuses: TestStatusMap = "error" in read ? new Map() : LOG_PARSERS[tests.log_parser](read.output);
  const found = new Map<string, TestStatus>();
  for (const id of expected) {
    const status = lookupStatus(statuses, id, expected);
    if (status !== undefined) found.set(id, status);
  }
  const tests_status = scoreStatuses(tests.FAIL_TO_PASS, tests.PASS_TO_PASS, found);
  const check = canaries.length > 0 ? checkCanaries(canaries, statuses) : null;
  const twinCheck = twins.length > 0 ? checkTwins(twins, statuses) : null;
  const exitCode = "error" in read ? null : read.exitCode;
  const rejected =
    "error" in read
      ? read.error
      : rejectRun(tests.log_parser, read.output, statuses, exitCode, canaries, check, twinCheck);
  return {
    tests_status,
    resolved: rejected === null && isResolved(tests_status),
    rejected,
    exitCode,
    testsInLog: statuses.size,
    canaries: check,
    twins: twinCheck,
  };
}

/** Why the hardened rules do not trust a run, most telling reason first; null when they do. */
function rejectRun(
  parser: LogParserName,
  output: string,
  statuses: TestStatusMap,
  exitCode: number | null,
  canaries: readonly Canary[],
  check: CanaryCheck | null,
  twins: TwinCheck | null,
): string | null {
  if (exitCode === null)
    return "the log records no exit code for the test command: the run did not end normally";
  if (exitCode >= 128)
    return `the test runner was killed (exit ${exitCode}, signal ${exitCode - 128}) before it could finish: its log proves nothing`;
  if (statuses.size === 0)
    return "no test results in the log: the suite did not run (collection error or crash)";
  const ran = suiteRan(parser, output);
  if (!ran.ran) return `no sign the suite ran to its end: ${ran.why}`;
  if (check?.tampered) return `tampering: ${check.tampered}`;
  if (twins?.tampered) return `tampering: ${twins.tampered}`;
  const anyFailed = [...statuses.values()].some((s) => s === "FAILED" || s === "ERROR");
  const mustFail = canaries.some((c) => c.expect === "FAILED");
  const failedExit = FAILED_TESTS_EXIT[parser];
  if (mustFail && !failedExit.fits(exitCode))
    return `tampering: tests planted to fail did fail, yet the runner exited ${exitCode} (a ${parser} run with failed tests exits ${failedExit.told}): something changed its exit status`;
  if (exitCode !== 0 && !anyFailed)
    return `the test command exited with ${exitCode} but reported no failed test (forged results?)`;
  if (exitCode === 0 && anyFailed)
    return "the test command exited 0 but the log shows failed tests: the log does not describe the run";
  return null;
}
