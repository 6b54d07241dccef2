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
 * pytest ≥ 9's subtests (`self.subTest`, the `subtests` fixture): `SUBFAILED(xs=[1, 2]) id - message`
 * in the summary, `id SUBFAILED(xs=[1, 2])  [ 50%]` under `-v`. The test's own line may still say
 * PASSED (a unittest test whose failures were all in subtests), so a failed subtest fails its test.
 * The description before the id may hold spaces; the id is the first word that names a `.py` file's test.
 */
const SUBFAILED_SUMMARY = /^SUBFAILED\S*(?: .*?)? ([^\s:]+\.py::.*)$/;
const SUBFAILED_VERBOSE = /^(\S.*?::\S*?(?:\[.*?\])?) SUBFAILED\b/;

/** A section rule pytest draws: `==== PASSES ====`, `=== short test summary info ===`, its final count. */
const RULE = /^=+ (.+) =+$/;

/** The lines pytest wrote in the two places it reports outcomes, as [from, to) ranges of `lines`. */
interface Regions {
  /** From `=== test session starts ===` (or the first line) to the next rule: `-v` lines live here. */
  progress: [number, number];
  /** After the last `=== short test summary info ===` up to the next rule or count line, if any. */
  summary: [number, number] | null;
}

/** A rule's title (`PASSES`, `2 passed in 0.1s`), or null for any other line. */
function ruleTitle(line: string): string | null {
  const first = line.charCodeAt(0);
  if (first === 61) return RULE.exec(line)?.[1] ?? null; // "=": most lines are not rules; skip the regexes
  // `-q` prints the final count bare: `3 passed in 0.01s`, `no tests ran in 0.01s`.
  return (first >= 48 && first <= 57) || first === 110 ? (FINAL.test(line) ? line : null) : null;
}

function regions(lines: readonly string[]): Regions {
  const titles = lines.map(ruleTitle);
  const nextRule = (from: number) => {
    const i = titles.findIndex((t, j) => j >= from && t !== null);
    return i < 0 ? lines.length : i;
  };
  const start = titles.indexOf("test session starts") + 1; // 0 when pytest printed no header (-q)
  const header = titles.lastIndexOf("short test summary info");
  return {
    progress: [start, nextRule(start)],
    summary: header < 0 ? null : [header + 1, nextRule(header + 1)],
  };
}

/**
 * Parse pytest output run with `-rA` (summary lines) and/or `-v` (status at the end of each line).
 * ANSI colour codes are stripped first. Ids keep their spaces and brackets: `test_x[a b]` stays whole,
 * unlike SWE-bench's parser, which splits at whitespace (see lookup.ts for matching its truncated ids).
 *
 * Only lines pytest itself wrote count. Code under test can print anything, and pytest shows what it
 * printed in its own sections (`PASSES`, `FAILURES`), or the code writes past the capture or after
 * pytest has finished (a conftest's `pytest_unconfigure`, an atexit hook). So:
 * - `STATUS id` lines are read in the short test summary — after the last such header, up to the
 *   final count line — or, when the log has no summary, in the progress section;
 * - `id STATUS` (`-v`) lines are read in the progress section only, from the session header to the
 *   first section rule, never override the summary's status for an id (the worse status is kept),
 *   and, when the summary lists passes (`-rA`/`-rP`, which name every outcome except skips), may only
 *   add a skip: `SKIPPED [1] file:line: reason` lines name no test, so skips are seen by id only there.
 * A log holds one pytest session (as SWE-bench's do); with two, only the last summary counts.
 */
export function parsePytest(log: string): TestStatusMap {
  const lines = cleanLines(log).map((l) => l.trim());
  const { progress, summary } = regions(lines);
  const statuses: TestStatusMap = new Map();
  if (summary) for (let i = summary[0]; i < summary[1]; i++) readSummaryLine(statuses, lines[i] as string);
  const summaryListsPasses = [...statuses.values()].includes("PASSED");
  for (let i = progress[0]; i < progress[1]; i++) {
    const line = lines[i] as string;
    // A failed subtest can only fail its test: read wherever pytest reports progress.
    const sub = line.includes(" SUBFAILED") ? SUBFAILED_VERBOSE.exec(line) : null;
    if (sub) {
      record(statuses, sub[1] as string, "FAILED");
      continue;
    }
    if (!summary && readSummaryLine(statuses, line)) continue;
    const verbose = line.includes("::") ? VERBOSE.exec(line) : null;
    const status = verbose && STATUSES[verbose[2] as string];
    if (!verbose || !status || (summaryListsPasses && status !== "SKIPPED")) continue;
    record(statuses, verbose[1] as string, status);
  }
  return statuses;
}

/** Read one `STATUS id [- message]` line into `statuses`; false when the line is not one. */
function readSummaryLine(statuses: TestStatusMap, line: string): boolean {
  if (line.startsWith("SUBFAILED")) {
    const sub = SUBFAILED_SUMMARY.exec(line);
    if (sub) record(statuses, cutId(sub[1] as string), "FAILED");
    return sub !== null;
  }
  const summary = SUMMARY.exec(line);
  if (!summary) return false;
  const status = STATUSES[summary[1] as string];
  const rest = summary[2] as string;
  if (status === undefined || (status === "SKIPPED" && /^\[\d+\]/.test(rest))) return true;
  const id = cutId(rest);
  // `ERROR path.py` is a collection error of a whole file: keep it, lookup maps its tests to it.
  if (id.includes("::") || /\.py$/.test(id)) record(statuses, id, status);
  return true;
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

/**
 * `=== 2 failed, 6 passed in 0.05s ===` (or without the rules under `-q`), possibly `(0:01:05)`;
 * pytest ≥ 9 adds its subtests' counts (`4 subtests passed`).
 */
const FINAL =
  /^(?:=+ )?((?:\d+ (?:subtests )?(?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)(?:, )?)+|no tests ran) in [\d.]+s(?: \([\d:]+\))?(?: =+)?$/;

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
