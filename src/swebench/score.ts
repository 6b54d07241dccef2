import type { TestStatus } from "../parsers/index.js";
import type { InstanceReport, TestBucket } from "./types.js";

/**
 * SWE-bench's bucketing (harness/grading.py): a FAIL_TO_PASS test succeeds on PASSED or XFAIL — a
 * SKIPPED one fails, or "skip every hidden test" would score as resolved; a PASS_TO_PASS test is kept
 * on PASSED, XFAIL or SKIPPED. A test missing from the log is a failure in both lists.
 */
const F2P_OK: ReadonlySet<TestStatus> = new Set(["PASSED", "XFAIL"]);
const P2P_OK: ReadonlySet<TestStatus> = new Set(["PASSED", "XFAIL", "SKIPPED"]);

function bucketOf(
  expected: readonly string[],
  statuses: ReadonlyMap<string, TestStatus>,
  ok: ReadonlySet<TestStatus>,
) {
  const bucket: TestBucket = { success: [], failure: [] };
  for (const id of expected) {
    const status = statuses.get(id);
    (status !== undefined && ok.has(status) ? bucket.success : bucket.failure).push(id);
  }
  return bucket;
}

/**
 * The `tests_status` of report.json from a parsed log. FAIL_TO_FAIL and PASS_TO_FAIL stay empty, as
 * SWE-bench writes them (it only fills them with `calculate_to_fail`, which its harness never sets).
 */
export function scoreStatuses(
  f2p: string[],
  p2p: string[],
  statuses: Map<string, TestStatus>,
): InstanceReport["tests_status"] {
  return {
    FAIL_TO_PASS: bucketOf(f2p, statuses, F2P_OK),
    PASS_TO_PASS: bucketOf(p2p, statuses, P2P_OK),
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}

/**
 * SWE-bench's FULL resolution: every FAIL_TO_PASS and every PASS_TO_PASS test succeeded (an empty list
 * counts as all succeeded). PARTIAL is not resolved, so only the failure lists matter.
 */
export function isResolved(testsStatus: InstanceReport["tests_status"]): boolean {
  return testsStatus.FAIL_TO_PASS.failure.length === 0 && testsStatus.PASS_TO_PASS.failure.length === 0;
}
