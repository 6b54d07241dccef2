import type { SuiteRan, TestStatusMap } from "./types.js";

/**
 * Django's own runner, `tests/runtests.py --verbosity 2`: unittest's verbose lines,
 * `test_name (module.Class) ... ok` (Python 3.11+: `test_name (module.Class.test_name) ... ok`),
 * `... skipped 'why'`, `... FAIL`, `... ERROR`, `... expected failure`; then a section per problem
 * headed `FAIL: test_name (module.Class)` / `ERROR: …`, `Ran N tests in S s`, and `OK` or
 * `FAILED (failures=1, errors=2)`. Ids are what stands before ` ... `, as SWE-bench's datasets have
 * them: `test_name (module.Class)`.
 *
 * The status map is SWE-bench's (`parse_log_django`), rule for rule: a test's output may come
 * between ` ... ` and its `ok` (then `ok` starts a later line and belongs to the test seen last), and
 * three messages Django's own logging prints into that gap are recognised across the line break. A
 * `FAIL:`/`ERROR:` header keys only the name before the space (unittest's header names the class in
 * parentheses after it), as SWE-bench's does. Expected failures and unexpected successes are not
 * read (SWE-bench has no such status).
 */
export function parseDjango(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  let previous: string | undefined;
  for (const raw of log.split("\n")) {
    let line = raw.trim();
    if (line.includes("--version is equivalent to version"))
      statuses.set("--version is equivalent to version", "PASSED");
    if (line.includes(" ... ")) previous = line.split(" ... ")[0];
    for (const suffix of PASS_SUFFIXES) {
      if (!line.endsWith(suffix)) continue;
      // One test of django__django-7188 prints a migration message before its own name.
      if (line.startsWith("Applying sites.0002_alter_domain_unique...test_no_migrations"))
        line = line.split("...").slice(1).join("...").trim();
      statuses.set(line.slice(0, line.lastIndexOf(suffix)), "PASSED");
      break;
    }
    if (line.includes(" ... skipped")) statuses.set(line.split(" ... skipped")[0] as string, "SKIPPED");
    if (line.endsWith(" ... FAIL")) statuses.set(line.split(" ... FAIL")[0] as string, "FAILED");
    if (line.startsWith("FAIL:")) statuses.set(nameAfterHeader(line), "FAILED");
    if (line.endsWith(" ... ERROR")) statuses.set(line.split(" ... ERROR")[0] as string, "ERROR");
    if (line.startsWith("ERROR:")) statuses.set(nameAfterHeader(line), "ERROR");
    if (line.startsWith("ok") && previous !== undefined) statuses.set(previous, "PASSED");
  }
  for (const pattern of INTERRUPTED_OK)
    for (const m of log.matchAll(pattern)) statuses.set(m[1] as string, "PASSED");
  return statuses;
}

const PASS_SUFFIXES = [" ... ok", " ... OK", " ...  OK"];

/** `FAIL: test_x (a.b.C)` → `test_x`: the second whitespace-separated word. */
function nameAfterHeader(line: string): string {
  return line.split(/\s+/)[1]?.trim() ?? "";
}

/**
 * Messages Django prints between a test's ` ... ` and its `ok`, on the runner's stream; the test
 * passed. (`m` makes `^`/`$` match at line ends; `[^]` crosses lines where SWE-bench's `(?s:.*?)` does.)
 */
const INTERRUPTED_OK = [
  /^(.*?)\s\.\.\.\sTesting against Django installed in ([\s\S]*?) silenced\)\.\nok$/gm,
  /^(.*?)\s\.\.\.\sInternal Server Error: \/(.*)\/\nok$/gm,
  /^(.*?)\s\.\.\.\sSystem check identified no issues \(0 silenced\)\nok$/gm,
];

/** `Ran 12 tests in 0.345s` then `OK` or `FAILED (...)`: unittest reached its end. */
const RAN = /^Ran (\d+) tests? in [\d.]+s$/m;
const VERDICT = /^(OK|FAILED \(.*\))(?: \(.*\))?$/m;

export function djangoSuiteRan(log: string): SuiteRan {
  const text = log.replace(/\r/g, "");
  const ran = RAN.exec(text);
  if (!ran)
    return {
      ran: false,
      why: "no `Ran N tests in S s` line from runtests.py: the run crashed or was cut off",
    };
  const verdict = VERDICT.exec(text.slice(ran.index));
  if (!verdict)
    return { ran: false, why: `runtests.py printed "${ran[0]}" but no OK or FAILED line after it` };
  return { ran: true, why: `runtests.py: ${ran[0]}, ${verdict[1]}` };
}
