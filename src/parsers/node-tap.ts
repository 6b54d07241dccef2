import { cleanLines, record, type SuiteRan, type TestStatusMap } from "./types.js";

/** node's TAP reporter indents each nesting level by four spaces. */
const INDENT = 4;

/**
 * A top-level result named after a test file is node reporting that the file itself failed to load
 * or exited non-zero (node runs each file in its own process): an ERROR, like pytest's collection error.
 */
export const TEST_FILE = /(?:^\/|\.(?:[cm]?[jt]s|tsx|jsx)$)/;

/**
 * Parse `node --test --test-reporter=tap` output. Test ids are the names from the outermost
 * `describe` down to the test, joined by " > " (the id scheme of the built-in node tasks).
 * `# SKIP` and `# TODO` directives count as SKIPPED, whatever the todo test did.
 */
export function parseNodeTap(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  const stack: string[] = [];
  for (const line of cleanLines(log)) {
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      const depth = Math.floor((subtest[1] as string).length / INDENT);
      stack.length = depth;
      stack[depth] = unescapeTap((subtest[2] as string).trim());
      continue;
    }
    // node-tap appends `# time=1.2ms` to each result: a comment, not part of the name.
    const result = /^(\s*)(not ok|ok) \d+(?: - (.*?))?(?:\s+#\s*(SKIP|TODO)\b.*|\s+# time=\S+)?$/i.exec(line);
    if (!result) continue;
    const depth = Math.floor((result[1] as string).length / INDENT);
    const name = unescapeTap((result[3] ?? stack[depth] ?? "").trim());
    const path = [...stack.slice(0, depth), name];
    stack.length = depth;
    const failed = result[2] === "not ok";
    const status = result[4]
      ? "SKIPPED"
      : !failed
        ? "PASSED"
        : depth === 0 && TEST_FILE.test(name)
          ? "ERROR"
          : "FAILED";
    record(statuses, path.join(" > "), status);
  }
  return statuses;
}

function unescapeTap(name: string): string {
  return name.replace(/\\#/g, "#").replace(/\\\\/g, "\\");
}

/** The reporter's closing `# tests N` comment (after the top-level `1..N` plan) ends a complete run. */
export function nodeTapSuiteRan(log: string): SuiteRan {
  const lines = cleanLines(log);
  // node's reporter and ava end with `# tests N`; tap (node-tap ≥ 18) with `# { total: N, pass: M }`.
  const tests = lines
    .map((l) => /^# tests (\d+)$/.exec(l) ?? /^# \{ total: (\d+)\b/.exec(l))
    .findLast((m) => m !== null);
  if (!tests) {
    // tap ≤ 16 (`tap --reporter=tap`) ends with its top-level plan after the files' results —
    // `1..2`, `# failed 1 of 2 tests`, `# time=…` — and no count line: a plan at the end that
    // matches the top-level results, closed by tap's time, is its sign that the run finished.
    const results = lines.flatMap((l, i) => (/^(not )?ok \d+\b/.test(l) ? [i] : []));
    const planAt = lines.findLastIndex((l) => /^1\.\.\d+\s*$/.test(l));
    const planned = planAt < 0 ? 0 : Number(lines[planAt]?.slice(3));
    // tap's closing `# time=` after the plan (node's own reporter follows its plan with `# tests N`).
    const closed = lines.slice(planAt + 1).some((l) => /^# time=[\d.]+m?s\s*$/.test(l));
    if (planned > 0 && planned === results.length && (results.at(-1) ?? -1) < planAt && closed)
      return { ran: true, why: `TAP plan at the end: 1..${planned}, ${planned} top-level results` };
    return {
      ran: false,
      why: "no `# tests N` summary from node's TAP reporter: the run crashed or was cut off",
    };
  }
  if (tests[1] === "0") return { ran: false, why: "node's test runner found no tests (# tests 0)" };
  return { ran: true, why: `TAP summary: ${tests[0]}` };
}
