/**
 * SWE-bench v5's bucketing of expected tests (harness/grading.py: `_resolve_case`, `test_passed`,
 * `test_maintained`, `test_failed`, `get_eval_tests_report`, `get_resolution_status`), over its raw
 * status map: statuses are whatever the parser kept, so a test can hold a status that is neither
 * passing nor failing (`ERROR:`), and then it lands in neither list — as in SWE-bench.
 */

export interface SwebenchBucket {
  success: string[];
  failure: string[];
}

export interface SwebenchTestsStatus {
  FAIL_TO_PASS: SwebenchBucket;
  PASS_TO_PASS: SwebenchBucket;
  FAIL_TO_FAIL: SwebenchBucket;
  PASS_TO_FAIL: SwebenchBucket;
}

export type SwebenchResolution = "RESOLVED_FULL" | "RESOLVED_PARTIAL" | "RESOLVED_NO";

/** `pass_and_fail` for pytest and most runners; `fail_only` for runners that print only failures. */
export type SwebenchEvalType = "pass_and_fail" | "fail_only";

const PASSING = new Set(["PASSED", "XFAIL"]);
const FAILING = new Set(["FAILED", "ERROR", "SKIPPED"]);

function count(s: string, ch: string): number {
  return s.split(ch).length - 1;
}

/**
 * The status-map key that stands for `id`: itself, or — for an id whose `[` outnumber its `]`, cut
 * mid-parameter in the dataset — the first key it prefixes, when every such key agrees on passing vs
 * not. Only pass-vs-not is compared, so among non-passing candidates the first one's status decides.
 */
export function resolveCase(id: string, statuses: ReadonlyMap<string, string>): string | undefined {
  if (statuses.has(id)) return id;
  if (count(id, "[") <= count(id, "]")) return undefined;
  const matches = [...statuses.keys()].filter((key) => key.startsWith(id));
  if (matches.length === 0) return undefined;
  const verdicts = new Set(matches.map((key) => PASSING.has(statuses.get(key) as string)));
  return verdicts.size === 1 ? matches[0] : undefined;
}

function statusOf(id: string, statuses: ReadonlyMap<string, string>): string | undefined {
  const key = resolveCase(id, statuses);
  return key === undefined ? undefined : statuses.get(key);
}

export function testPassed(id: string, statuses: ReadonlyMap<string, string>): boolean {
  const status = statusOf(id, statuses);
  return status !== undefined && PASSING.has(status);
}

/** PASS_TO_PASS: a skip is not a regression. */
export function testMaintained(id: string, statuses: ReadonlyMap<string, string>): boolean {
  return testPassed(id, statuses) || statusOf(id, statuses) === "SKIPPED";
}

/** Missing, FAILED, ERROR, or SKIPPED (a skipped FAIL_TO_PASS test resolves nothing). */
export function testFailed(id: string, statuses: ReadonlyMap<string, string>): boolean {
  const status = statusOf(id, statuses);
  return status === undefined || FAILING.has(status);
}

type Check = (id: string, statuses: ReadonlyMap<string, string>, bucket: SwebenchBucket) => void;

const checkPassAndFail: Check = (id, statuses, bucket) => {
  if (testPassed(id, statuses)) bucket.success.push(id);
  else if (testFailed(id, statuses)) bucket.failure.push(id);
};
const checkMaintained: Check = (id, statuses, bucket) => {
  if (testMaintained(id, statuses)) bucket.success.push(id);
  else if (testFailed(id, statuses)) bucket.failure.push(id);
};
/** Fail-only runners: exact lookup, and only a FAILED status fails (missing and ERROR succeed). */
const checkFailOnly: Check = (id, statuses, bucket) => {
  (statuses.get(id) === "FAILED" ? bucket.failure : bucket.success).push(id);
};

function bucket(ids: readonly string[], statuses: ReadonlyMap<string, string>, check: Check): SwebenchBucket {
  const result: SwebenchBucket = { success: [], failure: [] };
  for (const id of ids) check(id, statuses, result);
  return result;
}

/**
 * `get_eval_tests_report` with `calculate_to_fail` off, as the harness calls it: FAIL_TO_FAIL and
 * PASS_TO_FAIL stay empty.
 */
export function evalTestsReport(
  statuses: ReadonlyMap<string, string>,
  tests: { FAIL_TO_PASS: readonly string[]; PASS_TO_PASS: readonly string[] },
  evalType: SwebenchEvalType = "pass_and_fail",
): SwebenchTestsStatus {
  const failOnly = evalType === "fail_only";
  return {
    FAIL_TO_PASS: bucket(tests.FAIL_TO_PASS, statuses, failOnly ? checkFailOnly : checkPassAndFail),
    PASS_TO_PASS: bucket(tests.PASS_TO_PASS, statuses, failOnly ? checkFailOnly : checkMaintained),
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}

/** Share of a list that succeeded; an empty list (nothing in either bucket) counts as 1. */
function ratio(b: SwebenchBucket): number {
  const total = b.success.length + b.failure.length;
  return total === 0 ? 1 : b.success.length / total;
}

/** FULL when both lists are all success, PARTIAL when FAIL_TO_PASS is partly and PASS_TO_PASS fully. */
export function resolutionStatus(report: SwebenchTestsStatus): SwebenchResolution {
  const f2p = ratio(report.FAIL_TO_PASS);
  const p2p = ratio(report.PASS_TO_PASS);
  if (f2p === 1 && p2p === 1) return "RESOLVED_FULL";
  if (f2p > 0 && f2p < 1 && p2p === 1) return "RESOLVED_PARTIAL";
  return "RESOLVED_NO";
}
