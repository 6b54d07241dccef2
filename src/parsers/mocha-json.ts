import { z } from "zod";
import { findJsonReports } from "./json-report.js";
import { record, type SuiteRan, type TestStatusMap } from "./types.js";

const Test = z.object({ title: z.string(), fullTitle: z.string(), file: z.string().optional() });

/** The part of mocha's `--reporter json` report we read. */
const Report = z.object({
  stats: z.object({ tests: z.number(), passes: z.number(), failures: z.number() }),
  tests: z.array(Test),
  passes: z.array(Test),
  pending: z.array(Test),
  failures: z.array(Test),
});
type Report = z.infer<typeof Report>;

/** mocha's json reporter opens with its stats. */
const REPORT_START = /\{\s*"stats"/.source;

/** A failure that is not a test: a `before`/`after` hook, which mocha names `"before each" hook …`. */
const HOOK = /^"(?:before|after)(?: all| each)?" hook\b/;

export function findMochaReports(log: string): Report[] {
  return findJsonReports(log, REPORT_START, Report);
}

/**
 * Parse `mocha --reporter json` output. Ids are mocha's full titles (the suites' titles and the
 * test's, joined by spaces, as mocha prints them). A failed hook is an ERROR under its own title: the
 * tests it kept from running are absent, so they count as failing, as SWE-bench counts a missing test.
 */
export function parseMochaJson(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  for (const report of findMochaReports(log)) {
    for (const t of report.passes) record(statuses, t.fullTitle, "PASSED");
    for (const t of report.pending) record(statuses, t.fullTitle, "SKIPPED");
    for (const t of report.failures) record(statuses, t.fullTitle, HOOK.test(t.title) ? "ERROR" : "FAILED");
  }
  return statuses;
}

/** The report is written once the run ends; one that counts no tests proves nothing. */
export function mochaJsonSuiteRan(log: string): SuiteRan {
  const report = findMochaReports(log).at(-1);
  if (!report)
    return {
      ran: false,
      why: "no mocha JSON report (stats, tests) in the log: a test file failed to load, the run crashed, or the reporter was not json",
    };
  if (report.stats.tests === 0 && report.failures.length === 0)
    return { ran: false, why: "mocha's JSON report counts no tests (stats.tests 0)" };
  return { ran: true, why: `mocha JSON report: ${report.stats.tests} tests` };
}
