import { z } from "zod";
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

/**
 * Every JSON report in the log, in order. The report is one JSON object, but the log around it may
 * hold anything (npm's banner, console output, a second run), so candidates are found by their first
 * key and cut out by matching braces, strings included.
 */
export function findJestReports(log: string): Report[] {
  const reports: Report[] = [];
  const starts = new RegExp(REPORT_START, "g");
  for (let m = starts.exec(log); m !== null; m = starts.exec(log)) {
    const end = matchingBrace(log, m.index);
    if (end < 0) continue;
    try {
      const parsed = Report.safeParse(JSON.parse(log.slice(m.index, end + 1)));
      if (parsed.success) {
        reports.push(parsed.data);
        starts.lastIndex = end + 1;
      }
    } catch {
      // not JSON after all: keep looking
    }
  }
  return reports;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
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
