/** SWE-bench's test statuses (its harness has exactly these five; XPASS is not one of them). */
export type TestStatus = "PASSED" | "FAILED" | "SKIPPED" | "ERROR" | "XFAIL";

/** Test id → status, in the order the log first reported them. */
export type TestStatusMap = Map<string, TestStatus>;

export const LOG_PARSER_NAMES = [
  "pytest",
  "node-tap",
  "node-spec",
  "jest-json",
  "mocha-json",
  "go-test-json",
  "cargo-test",
  "sympy",
  "django",
  "pytest-options",
  "pytest-v2",
  "matplotlib",
  "seaborn",
] as const;

export type LogParserName = (typeof LOG_PARSER_NAMES)[number];

/** Whether a log shows the suite ran to its end, and the line (or its absence) that says so. */
export interface SuiteRan {
  ran: boolean;
  why: string;
}

/** CSI sequences (colours, bold, cursor moves) that runners print when they think a terminal is there. */
export const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]/g;

/** A log's lines without colour codes or carriage returns. */
export function cleanLines(log: string): string[] {
  return log.replace(ANSI_ESCAPE, "").split(/\r?\n/);
}

/** Worst first: when one id is reported twice, the worse status is kept. */
const SEVERITY: Record<TestStatus, number> = { ERROR: 4, FAILED: 3, SKIPPED: 2, XFAIL: 1, PASSED: 0 };

/**
 * Record a status, keeping the worse one when the id was already seen. An id repeats when two files
 * hold tests of the same name (node, jest, go, cargo ids carry no file) or when a test passes and then
 * errors in teardown; either way a pass must not hide a failure of the same name.
 */
export function record(statuses: TestStatusMap, id: string, status: TestStatus): void {
  const seen = statuses.get(id);
  if (seen === undefined || SEVERITY[status] > SEVERITY[seen]) statuses.set(id, status);
}

export function isPassing(status: TestStatus | undefined): boolean {
  return status === "PASSED" || status === "XFAIL";
}
