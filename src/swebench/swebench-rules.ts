/**
 * `--rules swebench`: SWE-bench v5.0.2's verdict on a test log, reproduced exactly (pure, no I/O), for
 * comparing with its leaderboard. Ported from harness/grading.py (`get_logs_eval`,
 * `get_eval_tests_report`, `get_resolution_status`) and harness/log_parsers/python.py
 * (`parse_log_pytest`); src/swebench/fixtures/swebench-parity.json holds SWE-bench's own verdicts on a
 * corpus of logs and swebench-rules-parity.test.ts checks every one. acilab's default (`hardened`)
 * rules are stricter in the places docs/grading.md lists; this module deliberately keeps SWE-bench's
 * loopholes, because its job is to agree with SWE-bench.
 *
 * SWE-bench picks a log parser per repository; for `pytest` this uses the port of its pytest parser.
 * For acilab's other parsers (node-tap, node-spec, jest-json, go-test-json, cargo-test) there is no
 * exact SWE-bench equivalent to port, so acilab's own parser from src/parsers reads the log and
 * everything around it (markers, fallbacks, the exit-code check, the bucketing) is SWE-bench's.
 */
import { LOG_PARSERS, type LogParserName } from "../parsers/index.js";
import {
  swebenchDjango,
  swebenchMatplotlib,
  swebenchPytestOptions,
  swebenchPytestV2,
  swebenchSeaborn,
  swebenchSympy,
} from "./swebench-rules-parsers.js";
import { parseLogPytest } from "./swebench-rules-pytest.js";
import { PY_DIGIT, PY_SPACE, PY_WORD, pyInt, pyUniversalNewlines } from "./swebench-rules-python.js";
import {
  evalTestsReport,
  resolutionStatus,
  type SwebenchEvalType,
  type SwebenchResolution,
  type SwebenchTestsStatus,
} from "./swebench-rules-report.js";

export { parseLogPytest } from "./swebench-rules-pytest.js";
export {
  evalTestsReport,
  resolutionStatus,
  resolveCase,
  type SwebenchBucket,
  type SwebenchEvalType,
  type SwebenchResolution,
  type SwebenchTestsStatus,
} from "./swebench-rules-report.js";

// SWE-bench's log markers (harness/constants), byte for byte: its eval script prints them.
export const START_TEST_OUTPUT = ">>>>> Start Test Output";
export const END_TEST_OUTPUT = ">>>>> End Test Output";
/** Followed by `: N`, the test command's own exit status, printed after the end marker. */
export const TEST_EXIT_CODE = ">>>>> Test Exit Code";
export const APPLY_PATCH_FAIL = ">>>>> Patch Apply Failed";
export const RESET_FAILED = ">>>>> Reset Failed";
export const TESTS_ERROR = ">>>>> Tests Errored";
export const TESTS_TIMEOUT = ">>>>> Tests Timed Out";
/** Any of these anywhere in the log voids it. */
const BAD_CODES = [APPLY_PATCH_FAIL, RESET_FAILED, TESTS_ERROR, TESTS_TIMEOUT] as const;

/**
 * SWE-bench's SUITE_RAN: a runner's own summary with a non-zero count, evidence that an empty status
 * map means "ran, nothing to report" rather than "never ran". Python's `re.M` anchors become
 * lookarounds on `\n` alone (JavaScript's `m` flag would also break lines at `\r`, U+2028, U+2029).
 */
const SUITE_RAN = new RegExp(
  [
    `Executed [1-9]${PY_DIGIT}* of ${PY_DIGIT}+`,
    `TOTAL: [1-9]${PY_DIGIT}* (?:SUCCESS|FAILED)`,
    `[1-9]${PY_DIGIT}* passing`,
    `Tests:${PY_SPACE}+[1-9]${PY_DIGIT}*`,
    `Test Suites:${PY_SPACE}+(?:${PY_DIGIT}+ ${PY_WORD}+, )*[1-9]${PY_DIGIT}* total`,
    `(?<![^\\n])# tests [1-9]${PY_DIGIT}*`,
    `[1-9]${PY_DIGIT}* specs?, ${PY_DIGIT}+ failures?`,
    `': ok(?![^\\n])`,
  ].join("|"),
  "u",
);

const EXIT_CODE = new RegExp(`${TEST_EXIT_CODE}:${PY_SPACE}*(-?${PY_DIGIT}+)`, "u");

/** The first `>>>>> Test Exit Code: N` anywhere in the log (a test may print one first), or null. */
export function parseTestExitCode(log: string): number | null {
  const m = EXIT_CODE.exec(log);
  return m ? pyInt(m[1] as string) : null;
}

/** Python's `text.split(sep)[i]`, or "" past the end (SWE-bench only indexes where it exists). */
function splitPart(text: string, sep: string, i: number): string {
  return text.split(sep)[i] ?? "";
}

/** SWE-bench's own reader for each Python repository's log; acilab's for runners it has no reader for. */
const SWEBENCH_READERS: Partial<Record<LogParserName, (log: string) => Map<string, string>>> = {
  pytest: parseLogPytest,
  "pytest-options": swebenchPytestOptions,
  "pytest-v2": swebenchPytestV2,
  matplotlib: swebenchMatplotlib,
  seaborn: swebenchSeaborn,
  sympy: swebenchSympy,
  django: swebenchDjango,
};

function parse(parser: LogParserName, log: string): Map<string, string> {
  const reader = SWEBENCH_READERS[parser];
  return reader ? reader(log) : new Map(LOG_PARSERS[parser](log));
}

export interface SwebenchLogEval {
  statusMap: Map<string, string>;
  found: boolean;
  /** Which check voided the log, in words, or null when `found`. */
  why: string | null;
}

/** `get_logs_eval`: the status map SWE-bench grades, or found=false and why. */
export function swebenchLogsEval(rawLog: string, parser: LogParserName): SwebenchLogEval {
  const content = pyUniversalNewlines(rawLog); // SWE-bench reads the log in text mode
  const none = (why: string): SwebenchLogEval => ({ statusMap: new Map(), found: false, why });
  const bad = BAD_CODES.filter((code) => content.includes(code));
  if (bad.length > 0)
    return none(`the log contains the failure marker "${bad[0]}", which voids a run under SWE-bench's rules`);
  const missing = [START_TEST_OUTPUT, END_TEST_OUTPUT].filter((marker) => !content.includes(marker));
  if (missing.length > 0)
    return none(`the log lacks the marker "${missing[0]}": the test command did not run between the markers`);

  // Between the first start marker and the next start marker or end marker, whichever comes first.
  const sliced = splitPart(splitPart(content, START_TEST_OUTPUT, 1), END_TEST_OUTPUT, 0);
  let statusMap = parse(parser, sliced);
  // Some runners' results land outside the markers (stdout/stderr interleaving): use the whole log.
  if (statusMap.size === 0) statusMap = parse(parser, content);
  if (statusMap.size === 0 && !SUITE_RAN.test(content))
    return none("no test results in the log, and no runner summary (SUITE_RAN) showing the suite ran");

  const exitCode = parseTestExitCode(content);
  const anyFailure = [...statusMap.values()].some((s) => s === "FAILED" || s === "ERROR");
  if (exitCode !== null && exitCode !== 0 && statusMap.size > 0 && !anyFailure)
    return none(
      `the test command exited with ${exitCode} but the log reports no FAILED or ERROR test: forged results?`,
    );
  return { statusMap, found: true, why: null };
}

export interface SwebenchTests {
  FAIL_TO_PASS: readonly string[];
  PASS_TO_PASS: readonly string[];
}

export interface SwebenchVerdict extends SwebenchLogEval {
  /** Empty buckets when !found (SWE-bench then writes no tests_status at all). */
  tests_status: SwebenchTestsStatus;
  resolution: SwebenchResolution;
  resolved: boolean;
}

/**
 * SWE-bench v5's verdict on one instance's whole log — the text with its `>>>>> Start Test Output`,
 * `>>>>> End Test Output` and `>>>>> Test Exit Code: N` lines — for the expected tests. `evalType`
 * is SWE-bench's per-repository choice; `fail_only` is for runners that print only failures.
 */
export function gradeSwebenchLog(
  log: string,
  tests: SwebenchTests,
  parser: LogParserName,
  evalType: SwebenchEvalType = "pass_and_fail",
): SwebenchVerdict {
  const evaluated = swebenchLogsEval(log, parser);
  if (!evaluated.found) {
    const empty = () => ({ success: [], failure: [] });
    const tests_status = {
      FAIL_TO_PASS: empty(),
      PASS_TO_PASS: empty(),
      FAIL_TO_FAIL: empty(),
      PASS_TO_FAIL: empty(),
    };
    return { ...evaluated, tests_status, resolution: "RESOLVED_NO", resolved: false };
  }
  const tests_status = evalTestsReport(evaluated.statusMap, tests, evalType);
  const resolution = resolutionStatus(tests_status);
  return { ...evaluated, tests_status, resolution, resolved: resolution === "RESOLVED_FULL" };
}
