import { TEST_FILE } from "./node-tap.js";
import { cleanLines, record, type SuiteRan, type TestStatus, type TestStatusMap } from "./types.js";

/** `✔ name (1.2ms)`, `✖ name (3ms) # todo reason`, `﹣ name (0.1ms) # SKIP`; `▶ suite` opens a suite. */
const RESULT = /^(\s*)(✔|✖|﹣) (.*)$/;
const SUITE = /^(\s*)▶ (.*)$/;
/** Everything after the duration is a directive: only skip and todo tests have one. */
const TAIL = /^(.*) \((?:[\d.]+m?s)\)(?: # (.*))?$/;

/**
 * Parse `node --test --test-reporter=spec` output. Ids match the TAP parser's: suite names down to
 * the test joined by " > ". A suite prints `▶ name` before its children and `✔/✖ name` after them at
 * the same indentation. ﹣ is a skip; a ✔ or ✖ with a directive after its duration is a todo test,
 * SKIPPED as in TAP. The `✖ failing tests:` recap at the end repeats failures without their suites,
 * so parsing stops there.
 */
export function parseNodeSpec(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  const suites: { indent: number; name: string }[] = [];
  for (const line of cleanLines(log)) {
    if (/^✖ failing tests:\s*$/.test(line)) break;
    const suite = SUITE.exec(line);
    if (suite) {
      const indent = (suite[1] as string).length;
      while (suites.length > 0 && (suites.at(-1)?.indent ?? 0) >= indent) suites.pop();
      suites.push({ indent, name: (suite[2] as string).trim() });
      continue;
    }
    const result = RESULT.exec(line);
    if (!result) continue;
    const indent = (result[1] as string).length;
    const tail = TAIL.exec(result[3] as string);
    const name = (tail ? (tail[1] as string) : (result[3] as string)).trim();
    const directive = tail?.[2];
    while (suites.length > 0 && (suites.at(-1)?.indent ?? 0) > indent) suites.pop();
    const closing = suites.at(-1);
    // The line that closes a suite names it at the suite's own indentation.
    if (closing && closing.indent === indent && closing.name === name) suites.pop();
    const path = [...suites.map((s) => s.name), name];
    const symbol = result[2];
    let status: TestStatus;
    if (symbol === "﹣" || directive !== undefined) status = "SKIPPED";
    else if (symbol === "✔") status = "PASSED";
    else status = indent === 0 && TEST_FILE.test(name) ? "ERROR" : "FAILED";
    record(statuses, path.join(" > "), status);
  }
  return statuses;
}

/** The reporter's closing `ℹ tests N` line ends a complete run. */
export function nodeSpecSuiteRan(log: string): SuiteRan {
  const tests = cleanLines(log)
    .map((l) => /^ℹ tests (\d+)$/.exec(l))
    .findLast((m) => m !== null);
  if (!tests)
    return {
      ran: false,
      why: "no `ℹ tests N` summary from node's spec reporter: the run crashed or was cut off",
    };
  if (tests[1] === "0") return { ran: false, why: "node's test runner found no tests (ℹ tests 0)" };
  return { ran: true, why: `node spec summary: ℹ tests ${tests[1]}` };
}
