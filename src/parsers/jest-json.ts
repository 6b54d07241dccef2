import { z } from "zod";
import { findJsonReports } from "./json-report.js";
import { record, type SuiteRan, type TestStatus, type TestStatusMap } from "./types.js";

/** The part of jest's `--json` / vitest's `--reporter=json` report we read (both write this shape). */
const Report = z.object({
  numTotalTests: z.number(),
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string().optional(),
      message: z.string().optional(),
      assertionResults: z.array(
        z.object({
          ancestorTitles: z.array(z.string()),
          title: z.string(),
          fullName: z.string().optional(),
          status: z.string(),
        }),
      ),
    }),
  ),
});
type Report = z.infer<typeof Report>;

/** jest and vitest statuses; `it.fails` tests that failed as expected are reported "passed". */
const STATUSES: Record<string, TestStatus> = {
  passed: "PASSED",
  failed: "FAILED",
  pending: "SKIPPED",
  skipped: "SKIPPED",
  todo: "SKIPPED",
  disabled: "SKIPPED",
};

/** Where a report may begin: `{` then one of the report's own top-level keys. */
const REPORT_START = /\{\s*"(?:num[A-Za-z]+|testResults|success|startTime)"/.source;

/** Every jest/vitest JSON report in the log, in order. */
export function findJestReports(log: string): Report[] {
  return findJsonReports(log, REPORT_START, Report);
}

/**
 * Parse vitest `--reporter=json` or jest `--json` output. Ids are the describe titles down to the
 * test joined by " > ", as for node's runner. A test file that failed before any test ran (syntax or
 * import error) has no assertion results: its path is recorded as ERROR.
 */
export function parseJestJson(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  for (const report of findJestReports(log)) {
    for (const file of report.testResults) {
      if (file.assertionResults.length === 0 && file.status === "failed") {
        record(statuses, file.name, "ERROR");
      }
      for (const test of file.assertionResults) {
        const status = STATUSES[test.status];
        if (status) record(statuses, [...test.ancestorTitles, test.title].join(" > "), status);
      }
    }
  }
  return statuses;
}

/** A report with `numTotalTests` is written only once the whole run finished. */
export function jestJsonSuiteRan(log: string): SuiteRan {
  const report = findJestReports(log).at(-1);
  if (!report)
    return {
      ran: false,
      why: "no JSON report (numTotalTests, testResults) in the log: the run crashed or the reporter was not json",
    };
  const loadErrors = report.testResults.filter(
    (f) => f.assertionResults.length === 0 && f.status === "failed",
  );
  if (report.numTotalTests === 0 && loadErrors.length === 0) {
    return { ran: false, why: "the JSON report counts no tests (numTotalTests 0)" };
  }
  return { ran: true, why: `JSON report: numTotalTests ${report.numTotalTests}` };
}
