import { ANSI_ESCAPE, type TestStatus, type TestStatusMap } from "./types.js";

const STATUSES: Record<string, TestStatus> = {
  PASSED: "PASSED",
  FAILED: "FAILED",
  ERROR: "ERROR",
  SKIPPED: "SKIPPED",
  XFAIL: "XFAIL",
  // An unexpected pass of an xfail test is a pass for grading purposes, as in SWE-bench's parser.
  XPASS: "PASSED",
};

/**
 * Parse pytest output run with `-rA`: the short summary has `STATUS test_id [- message]` lines, and
 * verbose runs print `test_id STATUS` — both are read. ANSI colour codes are stripped first.
 */
export function parsePytest(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  for (const raw of log.split("\n")) {
    const line = raw.replace(ANSI_ESCAPE, "").trim();
    const leading = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\s+(.+)$/.exec(line);
    if (leading) {
      const status = STATUSES[leading[1] as string] as TestStatus;
      let id = (leading[2] as string).trim();
      // FAILED/ERROR lines carry " - <message>" after the id; SKIPPED lines look like "[1] file:line: reason".
      const dash = id.indexOf(" - ");
      if (dash >= 0) id = id.slice(0, dash);
      if (status === "SKIPPED" && id.startsWith("[")) continue;
      if (id.includes("::") || id.endsWith(".py")) statuses.set(id, status);
      continue;
    }
    const trailing = /^(\S+::\S.*?)\s+(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(\s+\[\s*\d+%\])?$/.exec(line);
    if (trailing && !statuses.has(trailing[1] as string)) {
      statuses.set(trailing[1] as string, STATUSES[trailing[2] as string] as TestStatus);
    }
  }
  return statuses;
}
