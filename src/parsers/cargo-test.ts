import { cleanLines, record, type SuiteRan, type TestStatus, type TestStatusMap } from "./types.js";

/**
 * `test name ... ok|FAILED|ignored[, reason]`. Not anchored at the line start: with `--nocapture`
 * or stderr merged in, a panic message can be printed on the same line before it. A `#[should_panic]`
 * test prints ` - should panic` after its name, which is not part of the id.
 */
const RESULT = /(?:^|\s)test (\S.*?)(?: - should panic(?: with .*)?)? \.\.\. +(ok|FAILED|ignored)\b/;
/** `test name ... ` whose status was pushed to a later line by interleaved output. */
const PENDING = /(?:^|\s)test (\S.*?)(?: - should panic(?: with .*)?)? \.\.\. *(.*)$/;
const STATUSES: Record<string, TestStatus> = { ok: "PASSED", FAILED: "FAILED", ignored: "SKIPPED" };

/**
 * Parse `cargo test` output: every test binary (unit, integration, doc-tests) prints its own
 * `running N tests` block. Ids are libtest's names (`tests::adds`, `src/lib.rs - add (line 3)`).
 * Failures named only in a block's `failures:` recap (their result line lost in interleaved output)
 * are still FAILED.
 */
export function parseCargoTest(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  let pending: string | undefined;
  // After `failures:` comes either the failed tests' output (`---- name stdout ----` blocks) or, in
  // the second such section, the bare list of failed names indented by four spaces.
  let recap: "off" | "next" | "list" = "off";
  let section = "";
  for (const line of cleanLines(log)) {
    const result = RESULT.exec(line);
    if (result) {
      record(statuses, result[1] as string, STATUSES[result[2] as string] as TestStatus);
      pending = undefined;
      continue;
    }
    const started = PENDING.exec(line);
    if (started && !/^running \d+ tests?$/.test(line)) {
      pending = started[1];
      continue;
    }
    const late = /^\s*(ok|FAILED|ignored)\s*$/.exec(line);
    if (late && pending !== undefined) {
      record(statuses, pending, STATUSES[late[1] as string] as TestStatus);
      pending = undefined;
      continue;
    }
    // `--show-output` prints a `successes:` section of the same shape for passing tests.
    const header = /^(failures|successes):\s*$/.exec(line);
    if (header) section = header[1] as string;
    const output = /^---- (.+) stdout ----$/.exec(line);
    if (output && section === "failures") record(statuses, output[1] as string, "FAILED");
    if (header?.[1] === "failures") recap = "next";
    else if (recap !== "off" && line.trim() !== "") {
      const name = /^ {4}(\S.*)$/.exec(line);
      if (name) record(statuses, (name[1] as string).trim(), "FAILED");
      recap = name ? "list" : "off";
    } else if (recap === "list") recap = "off";
  }
  return statuses;
}

/** Each test binary that started (`running N tests`) must end with its `test result:` line. */
export function cargoTestSuiteRan(log: string): SuiteRan {
  const lines = cleanLines(log);
  const started = lines.filter((l) => /^running \d+ tests?$/.test(l.trim())).length;
  const results = lines.filter((l) => /^test result: (ok|FAILED)\./.test(l.trim()));
  if (results.length === 0) {
    const compile = lines.find((l) => /^error(\[E\d+\])?: /.test(l) || /could not compile/.test(l));
    return {
      ran: false,
      why: compile
        ? `cargo did not run the tests: ${compile.trim()}`
        : "no `test result:` line from cargo test: the run crashed or was cut off",
    };
  }
  if (results.length < started) {
    return {
      ran: false,
      why: `${started} test binaries started but only ${results.length} printed \`test result:\` (one crashed or was cut off)`,
    };
  }
  return {
    ran: true,
    why: `cargo test: ${results.length} test binar${results.length === 1 ? "y" : "ies"} finished`,
  };
}
