import { cpSync, existsSync, rmSync } from "node:fs";
import type { BackendChoice } from "../sandbox/index.js";
import { openTaskSandbox, prepareWorkspace, type Task } from "../tasks/index.js";
import { applyPatch } from "./apply-patch.js";
import { LOG_PARSERS, type TestStatus, type TestStatusMap } from "./parsers/index.js";

/** SWE-bench's default per-instance test timeout is 1,800 s; our tasks are small, so 5 minutes. */
export const GRADE_TEST_TIMEOUT_MS = 300_000;
/** Test logs are parsed, not shown to a model: keep up to 4 MB. */
const GRADE_LOG_LIMIT = 4_000_000;

export interface TestBucket {
  success: string[];
  failure: string[];
}

/** The per-instance report, in SWE-bench's report.json shape plus what we add. */
export interface GradeReport {
  instance_id: string;
  patch_is_None: boolean;
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  resolved: boolean;
  tests_status: {
    FAIL_TO_PASS: TestBucket;
    PASS_TO_PASS: TestBucket;
    FAIL_TO_FAIL: TestBucket;
    PASS_TO_FAIL: TestBucket;
  };
  /** Why the log was not trusted (forged passes, no sign the suite ran), or null. */
  rejected: string | null;
  test_exit_code: number | null;
  test_timed_out: boolean;
  apply_log: string;
  test_output: string;
}

const F2P_OK: ReadonlySet<TestStatus> = new Set(["PASSED", "XFAIL"]);
const P2P_OK: ReadonlySet<TestStatus> = new Set(["PASSED", "XFAIL", "SKIPPED"]);

/** Split expected tests by outcome; a test missing from the log is a failure. */
export function bucket(
  expected: readonly string[],
  statuses: TestStatusMap,
  ok: ReadonlySet<TestStatus>,
): TestBucket {
  const result: TestBucket = { success: [], failure: [] };
  for (const id of expected) {
    const status = statuses.get(id);
    (status !== undefined && ok.has(status) ? result.success : result.failure).push(id);
  }
  return result;
}

/** Reasons to distrust a log even when the expected tests look green. */
export function rejectLog(
  statuses: TestStatusMap,
  exitCode: number | null,
  timedOut: boolean,
): string | null {
  if (timedOut) return "the test run timed out";
  if (statuses.size === 0)
    return "no test results in the log: the suite did not run (collection error or crash)";
  const anyFailed = [...statuses.values()].some((s) => s === "FAILED" || s === "ERROR");
  if (exitCode !== 0 && !anyFailed) {
    return `the test command exited with ${exitCode ?? "a signal"} but reported no failed test (forged results?)`;
  }
  return null;
}

/**
 * Grade a patch: fresh copy of the task at base → apply the patch → copy the hidden tests over it →
 * run the task's tests in a sandbox → parse → resolved iff every FAIL_TO_PASS test is PASSED/XFAIL
 * and every PASS_TO_PASS test is PASSED/XFAIL/SKIPPED, and the log is trustworthy.
 */
export async function gradePatch(
  task: Task,
  patch: string | null,
  backend?: BackendChoice,
): Promise<GradeReport> {
  const empty: TestBucket = { success: [], failure: [] };
  const report: GradeReport = {
    instance_id: task.id,
    patch_is_None: patch === null,
    patch_exists: patch !== null && patch.trim() !== "",
    patch_successfully_applied: false,
    resolved: false,
    tests_status: { FAIL_TO_PASS: empty, PASS_TO_PASS: empty, FAIL_TO_FAIL: empty, PASS_TO_FAIL: empty },
    rejected: null,
    test_exit_code: null,
    test_timed_out: false,
    apply_log: "",
    test_output: "",
  };
  // SWE-bench counts an empty patch as unresolved without running anything.
  if (!report.patch_exists) return { ...report, apply_log: "empty patch: not run" };
  const ws = await prepareWorkspace(task);
  const { sandbox } = await openTaskSandbox(task, ws.root, backend);
  try {
    const applied = await applyPatch(ws.root, patch ?? "");
    report.apply_log = applied.log;
    report.patch_successfully_applied = applied.applied;
    if (!applied.applied) return report;
    if (existsSync(task.hiddenDir)) cpSync(task.hiddenDir, ws.root, { recursive: true, force: true });
    const run = await sandbox.exec({
      argv: task.testCommand,
      timeoutMs: GRADE_TEST_TIMEOUT_MS,
      outputLimit: GRADE_LOG_LIMIT,
    });
    report.test_output = run.output;
    report.test_exit_code = run.exitCode;
    report.test_timed_out = run.timedOut;
    const statuses = LOG_PARSERS[task.logParser](run.stdout);
    report.tests_status.FAIL_TO_PASS = bucket(task.failToPass, statuses, F2P_OK);
    report.tests_status.PASS_TO_PASS = bucket(task.passToPass, statuses, P2P_OK);
    report.rejected = rejectLog(statuses, run.exitCode, run.timedOut);
    report.resolved =
      report.rejected === null &&
      report.tests_status.FAIL_TO_PASS.failure.length === 0 &&
      report.tests_status.PASS_TO_PASS.failure.length === 0;
    return report;
  } finally {
    await sandbox.close();
    rmSync(ws.root, { recursive: true, force: true });
  }
}
