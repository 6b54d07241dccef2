import { isPassing, type TestStatus, type TestStatusMap } from "./types.js";

/**
 * SWE-bench's rule is an exact dictionary lookup (grading.py: `case in status_map`), and it is only
 * consistent because the same parser wrote the FAIL_TO_PASS/PASS_TO_PASS lists: that parser takes the
 * id as the first whitespace-separated token, so `test_x[a b]` became `test_x[a` on both sides. Our
 * pytest parser keeps ids whole, so an expected id taken from a SWE-bench dataset may be the cut form,
 * and a log parsed by a splitting tool may hold cut ids. The fallbacks below bridge that, and only that:
 * pytest ids never hold whitespace outside their `[...]` parameters, so a cut id is recognisable as a
 * `path::test[...` whose `[` was never closed. Node, jest, go and cargo ids are matched exactly only.
 *
 * The safety rule: a fallback may hand back a failing status freely (it can only make a grade stricter),
 * but a passing status only when the log entry stands for this expected id and no other one.
 */

/** The SWE-bench form of an id: cut at its first whitespace. */
function cut(id: string): string {
  const space = id.search(/\s/);
  return space < 0 ? id : id.slice(0, space);
}

/** `path::test[a` — a pytest parametrized id cut inside its brackets. */
function isCutPytestId(id: string): boolean {
  return id.includes("::") && id.split("[").length > id.split("]").length;
}

const SEVERITY: readonly TestStatus[] = ["ERROR", "FAILED", "SKIPPED", "XFAIL", "PASSED"];
function worst(statuses: TestStatus[]): TestStatus | undefined {
  return SEVERITY.find((s) => statuses.includes(s));
}

/**
 * The status of `expectedId` in a parsed log, or undefined when the log does not have it.
 *
 * 1. Exact match.
 * 2. The expected id is cut (`path::test[a`, from a SWE-bench dataset) and the log has whole ids: it
 *    stands for every log id that cuts to it, and gets the worst of their statuses, so it passes only
 *    if all of them passed.
 * 3. The log id is cut and the expected id is whole: when the cut entry failed, that is the answer.
 *    When it passed, it is credited only if no other expected id (from `expectedIds`, the task's
 *    FAIL_TO_PASS and PASS_TO_PASS together) without an exact match cuts to the same entry — one log
 *    line cannot prove two tests passed. Without `expectedIds` such a pass is never credited.
 * 4. A pytest collection error of the whole file (`ERROR path.py`) is the status of each of its tests.
 */
export function lookupStatus(
  statuses: TestStatusMap,
  expectedId: string,
  expectedIds?: readonly string[],
): TestStatus | undefined {
  const exact = statuses.get(expectedId);
  if (exact !== undefined) return exact;

  if (isCutPytestId(expectedId) && cut(expectedId) === expectedId) {
    const whole = [...statuses].filter(([id]) => id !== expectedId && cut(id) === expectedId);
    if (whole.length > 0) return worst(whole.map(([, s]) => s));
  }

  const short = cut(expectedId);
  const cutEntry = short !== expectedId && isCutPytestId(short) ? statuses.get(short) : undefined;
  if (cutEntry !== undefined) {
    if (!isPassing(cutEntry)) return cutEntry;
    if (expectedIds === undefined) return undefined;
    const sharers = expectedIds.filter((e) => e !== expectedId && !statuses.has(e) && cut(e) === short);
    return sharers.length === 0 ? cutEntry : undefined;
  }

  const file = expectedId.split("::")[0] as string;
  if (file !== expectedId && statuses.get(file) === "ERROR") return "ERROR";
  return undefined;
}
