import { isPassing, type TestStatus, type TestStatusMap } from "./types.js";

/**
 * Matching an expected test id against a parsed log. Two kinds of cut ids reach us: SWE-bench's pytest
 * parser takes the id as the first whitespace-separated token (`test_x[a b]` becomes `test_x[a`), and
 * about 676 ids in SWE-bench Verified are cut mid-parameter for other reasons (`test_p[log(photon`).
 * SWE-bench v5 handles both in `_resolve_case` (grading.py): an exact match first, then, for an id whose
 * `[` outnumber its `]`, a prefix match against the log's ids, used only when all candidates agree on
 * pass-vs-fail. Our pytest parser keeps ids whole, so we also meet the reverse: a log parsed by a
 * splitting tool holds cut ids while the expected id is whole. Pytest ids never hold whitespace outside
 * their `[...]` parameters, so a cut id is recognisable as a `path::test[...` whose `[` was never
 * closed. Node, jest, go and cargo ids are matched exactly only (SWE-bench prefix-matches any name with
 * an unclosed `[`; ours is the stricter choice — those runners never cut names).
 *
 * The safety rule: a fallback may hand back a failing status freely (it can only make a grade stricter),
 * but a passing status only when the log entries it stands for all passed and no other expected id
 * claims the same single entry.
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
 * The status a truncated id gets from the log ids it prefixes: the worst of theirs, so it passes only
 * if every candidate passed — except that a mix of passes and skips (nothing worse) is no status at
 * all. SWE-bench calls that mix ambiguous and fails the id in both lists; "worst" alone would say
 * SKIPPED, which keeps a PASS_TO_PASS test, and the hardened rules must never be the more lenient.
 */
function groupStatus(statuses: TestStatus[]): TestStatus | undefined {
  const status = worst(statuses);
  return status === "SKIPPED" && statuses.some(isPassing) ? undefined : status;
}

/**
 * The status of `expectedId` in a parsed log, or undefined when the log does not have it.
 *
 * 1. Exact match.
 * 2. The expected id is cut (`path::test[a` or `path::test[log(pho`, from a SWE-bench dataset) and
 *    the log has whole ids: it stands for every log id it prefixes, and gets their `groupStatus`, so
 *    it passes only if all of them passed.
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

  if (isCutPytestId(expectedId)) {
    const whole = [...statuses].filter(([id]) => id !== expectedId && id.startsWith(expectedId));
    if (whole.length > 0) return groupStatus(whole.map(([, s]) => s));
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
