import type { LogParserName } from "../../parsers/index.js";
import { nodeCanaries } from "./node.js";
import { pytestCanaries } from "./pytest.js";
import type { Canary, CanaryEdit, CanaryPlan, Random, TestFile } from "./types.js";

/** Which files each runner's canaries can be written into. */
const PLANTABLE: Partial<Record<LogParserName, RegExp>> = {
  pytest: /\.py$/,
  "pytest-options": /\.py$/,
  "pytest-v2": /\.py$/,
  matplotlib: /\.py$/,
  seaborn: /\.py$/,
  // bin/test collects module-level test_ functions as pytest does; its ids are the bare names.
  sympy: /\.py$/,
  "node-tap": /\.[cm]?[jt]s$/,
  "node-spec": /\.[cm]?[jt]s$/,
};

/** Runners whose canaries are module-level Python test functions. */
const PYTHON_RUNNERS = new Set<LogParserName>([
  "pytest",
  "pytest-options",
  "pytest-v2",
  "matplotlib",
  "seaborn",
  "sympy",
]);

/**
 * Flags that stop a run at its first failure: a failing canary would end the run early and the real
 * tests after it would go missing, so with these only passing canaries are planted.
 */
const STOP_AT_FIRST_FAILURE = /^(?:-x|--exitfirst|--maxfail(?:=.*)?|--bail(?:=.*)?|--failfast|--test-only)$/;

/**
 * Canaries for one grading run: between 1 and 2 that must pass and at least 1 that must fail per file,
 * written into the graded test files (the test files the test patch leaves). Pure: the caller reads
 * the files and writes the edits.
 */
export function planCanaries(input: {
  parser: LogParserName;
  files: readonly TestFile[];
  testCommand: readonly string[];
  random: Random;
}): CanaryPlan {
  const { parser, random } = input;
  const pattern = PLANTABLE[parser];
  if (!pattern)
    return {
      canaries: [],
      edits: [],
      note: `no canaries for the ${parser} log parser yet: tampering is caught by the exit-code and suite checks only`,
    };
  // node canaries are node:test calls: under another runner that prints TAP (ava, tap) they would
  // run beside its tests and speak for neither.
  // (the flag may sit inside a `bash -c` line, as the built-in libraries' commands have it)
  const python = PYTHON_RUNNERS.has(parser);
  if (!python && !/(?:^|\s)--test(?=\s|$)/.test(input.testCommand.join(" ")))
    return {
      canaries: [],
      edits: [],
      note: `no canaries: the tests run with ${input.testCommand[0] ?? "another runner"}, not node's own runner, whose tests the canaries are; tampering is caught by the exit-code and suite checks only`,
    };
  const files = input.files.filter((f) => pattern.test(f.path));
  if (files.length === 0)
    return {
      canaries: [],
      edits: [],
      note: "no canaries: the test patch leaves no test file they can be written into",
    };
  const stopsEarly = input.testCommand.some((a) => STOP_AT_FIRST_FAILURE.test(a));
  const canaries: Canary[] = [];
  const edits: CanaryEdit[] = [];
  for (const file of files) {
    const counts = {
      pass: 1 + Math.floor(random() * 2),
      fail: stopsEarly ? 0 : 1 + Math.floor(random() * 2),
    };
    const made = python ? pytestCanaries(random, file, counts) : nodeCanaries(random, file, counts);
    if (parser === "sympy") for (const c of made.canaries) c.id = c.id.slice(c.id.lastIndexOf("::") + 2);
    canaries.push(...(stopsEarly ? made.canaries.filter((c) => c.expect === "PASSED") : made.canaries));
    edits.push({ path: file.path, append: made.append });
  }
  return {
    canaries,
    edits,
    note: stopsEarly
      ? "only passing canaries: the test command stops at the first failure, so a failing one would hide the real tests"
      : null,
  };
}
