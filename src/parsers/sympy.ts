import type { SuiteRan, TestStatusMap } from "./types.js";

/**
 * sympy's own runner, `bin/test --verbose`: a header (`=== test process starts ===`), then per test
 * file its path and count, one line per test — `test_name ok`, `test_name F`, `test_name E` (also `f`
 * xfail, `s` skip, `X` xpass, `w` slow, which SWE-bench does not read) — then a section per failure
 * headed `___ path.py:test_name ___`, and `=== tests finished: N passed, M failed, in S seconds ===`.
 * Ids are bare function names, as SWE-bench's datasets have them.
 *
 * The status map is SWE-bench's (`parse_log_sympy`): ok → PASSED, F → FAILED, E → ERROR, every
 * failure header `path.py:name` → FAILED under that key, nothing else. One addition: the runner writes
 * the last test of each file on the line that closes the file (`test_last ok        [OK]`, `[FAIL]`),
 * which SWE-bench's reader does not see (the line no longer ends in ` ok`); this parser reads it too,
 * so every id SWE-bench reads has the same status here and a file's last test is not lost (the
 * canaries the grader appends to a file end up there). The datasets never list such a test, since
 * SWE-bench's reader produced their lists.
 */
export function parseSympy(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  // SWE-bench's first pass: every `_ path.py:name _` anywhere is a failure of `path.py:name`.
  for (const m of log.matchAll(FAILURE_HEADER)) statuses.set(`${m[2]}.py:${m[3]}`, "FAILED");
  for (const raw of log.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("test_")) continue;
    const closing = FILE_CLOSE.exec(line);
    const body = closing ? (closing[1] as string) : line;
    const id = body.split(/\s+/)[0] as string;
    // Later lines win, as in SWE-bench's dict; the three endings it reads, in its order.
    if (body.endsWith(" E")) statuses.set(id, "ERROR");
    if (body.endsWith(" F")) statuses.set(id, "FAILED");
    if (body.endsWith(" ok")) statuses.set(id, "PASSED");
  }
  return statuses;
}

/** SWE-bench's `(_*) (.*)\.py:(.*) (_*)`, line by line (its `.` does not cross a newline). */
const FAILURE_HEADER = /(_*) (.*)\.py:(.*) (_*)/g;
/** The line that ends a file's tests: its last test, then `[OK]` or `[FAIL]` far to the right. */
const FILE_CLOSE = /^(test_\S+ \S+)\s+\[(?:OK|FAIL)\]$/;
/**
 * `=== tests finished: 22 passed, 1 failed, in 1.30 seconds ===`; a summary too long for the
 * terminal's width loses its rules and breaks before `in S seconds`.
 */
const FINISHED = /^[= ]*tests finished: ([^\n=]*?)[= ]*$/m;

/** bin/test ran to its end when it printed its `tests finished` line (a crash or a kill does not). */
export function sympySuiteRan(log: string): SuiteRan {
  const m = FINISHED.exec(log.replace(/\r/g, ""));
  if (!m)
    return { ran: false, why: "no `tests finished` line from bin/test: the run crashed or was cut off" };
  return { ran: true, why: `bin/test: tests finished: ${m[1]}` };
}
