import { cleanLines, record, type SuiteRan, type TestStatus, type TestStatusMap } from "./types.js";

/**
 * pytest's words for an outcome. XPASS (an xfail-marked test that passed) is deliberately absent:
 * SWE-bench's TestStatus has no XPASS and its parser skips those lines, so such a test is missing from
 * the map and grades as a failure — the same verdict pytest gives it under `xfail_strict`.
 */
const STATUSES: Record<string, TestStatus> = {
  PASSED: "PASSED",
  FAILED: "FAILED",
  ERROR: "ERROR",
  SKIPPED: "SKIPPED",
  XFAIL: "XFAIL",
};

/** `-rA` short summary: `STATUS id`, `STATUS id - message`, `SKIPPED [1] file:line: reason`. */
const SUMMARY = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.+)$/;
/** `-v` progress: `id STATUS`, optionally `(reason)` and the `[ 50%]` counter after it. */
const VERBOSE = /^(\S.*?::.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?(?:\s+\[\s*\d+%\])?$/;

/**
 * Parse pytest output run with `-rA` (summary lines) and/or `-v` (status at the end of each line).
 * ANSI colour codes are stripped first. Ids keep their spaces and brackets: `test_x[a b]` stays whole,
 * unlike SWE-bench's parser, which splits at whitespace (see lookup.ts for matching its truncated ids).
 * `SKIPPED [1] file:line: reason` lines name no test, so skips are only seen by id in `-v` output.
 */
export function parsePytest(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  for (const raw of cleanLines(log)) {
    const line = raw.trim();
    const summary = SUMMARY.exec(line);
    if (summary) {
      const status = STATUSES[summary[1] as string];
      const rest = summary[2] as string;
      if (status === undefined || (status === "SKIPPED" && /^\[\d+\]/.test(rest))) continue;
      const id = cutId(rest);
      // `ERROR path.py` is a collection error of a whole file: keep it, lookup maps its tests to it.
      if (id.includes("::") || /\.py$/.test(id)) record(statuses, id, status);
      continue;
    }
    const verbose = line.includes("::") ? VERBOSE.exec(line) : null;
    const status = verbose && STATUSES[verbose[2] as string];
    if (verbose && status) record(statuses, verbose[1] as string, status);
  }
  return statuses;
}

/**
 * The test id at the start of `rest`, which may go on with ` - message`. A parametrized id can itself
 * hold ` - ` (`test_x[[br] - ket]`), so cut at the first ` - ` (or the end) where the brackets balance.
 */
function cutId(rest: string): string {
  // Most lines have no message: one candidate, nothing to choose (and 2,294 logs parse in ~⅓ the time).
  if (!rest.includes(" - ")) return rest.trim();
  const cuts: number[] = [];
  for (let i = rest.indexOf(" - "); i >= 0; i = rest.indexOf(" - ", i + 1)) cuts.push(i);
  cuts.push(rest.length);
  const candidates = cuts.map((cut) => rest.slice(0, cut).trim());
  return candidates.find(balanced) ?? candidates.find((c) => c.endsWith("]")) ?? (candidates[0] as string);
}

function balanced(id: string): boolean {
  let depth = 0;
  for (let i = 0; i < id.length; i++) {
    const ch = id.charCodeAt(i);
    if (ch === 91)
      depth++; // [
    else if (ch === 93 && --depth < 0) return false; // ]
  }
  return depth === 0 && (!id.includes("[") || id.endsWith("]"));
}

/** `=== 2 failed, 6 passed in 0.05s ===` (or without the rules under `-q`), possibly `(0:01:05)`. */
const FINAL =
  /^(?:=+ )?((?:\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)(?:, )?)+|no tests ran) in [\d.]+s(?: \([\d:]+\))?(?: =+)?$/;

/** pytest ran to the end if its final count line is there and it was not interrupted. */
export function pytestSuiteRan(log: string): SuiteRan {
  let final: string | undefined;
  let interrupted: string | undefined;
  for (const raw of cleanLines(log)) {
    const line = raw.trim();
    const m = FINAL.exec(line);
    if (m) final = m[1];
    // `!!! Interrupted: 1 error during collection !!!`, `!!! KeyboardInterrupt !!!`, `pytest.exit()`;
    // `-x`'s `stopping after 1 failures` is a deliberate early end, not a crash.
    const stop = /^!+ (.+?) !+$/.exec(line);
    if (stop && !/^stopping after/.test(stop[1] as string)) interrupted = stop[1];
  }
  if (final === undefined)
    return {
      ran: false,
      why: "no pytest summary line (`=== N passed in Xs ===`): the run crashed or was cut off",
    };
  if (interrupted !== undefined)
    return { ran: false, why: `pytest stopped before running the tests: ${interrupted} (${final})` };
  if (final === "no tests ran") return { ran: false, why: "pytest collected no tests (no tests ran)" };
  return { ran: true, why: `pytest summary: ${final}` };
}
