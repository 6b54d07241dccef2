import { describe, expect, it } from "vitest";
import type { Canary } from "./canaries/index.js";
import { formatTestOutput, type GradedTests, gradeLog, readTestOutput } from "./grade-log.js";

const tests: GradedTests = {
  FAIL_TO_PASS: ["tests/t.py::test_fix"],
  PASS_TO_PASS: ["tests/t.py::test_old"],
  log_parser: "pytest",
};
const summary = (lines: string[], counts: string) =>
  [
    "=========================== short test summary info ============================",
    ...lines,
    `=================== ${counts} in 0.02s ===================`,
  ].join("\n");
const canaries: Canary[] = [
  { id: "tests/t.py::test_keeps_order_when_empty", expect: "PASSED" },
  { id: "tests/t.py::test_handles_large_values", expect: "FAILED" },
];
const honest = summary(
  [
    "PASSED tests/t.py::test_fix",
    "PASSED tests/t.py::test_old",
    "PASSED tests/t.py::test_keeps_order_when_empty",
    "FAILED tests/t.py::test_handles_large_values - assert 3 == 4",
  ],
  "1 failed, 3 passed",
);
const log = (output: string, exitCode: number | null, signal: string | null = null) =>
  formatTestOutput({ output, exitCode, signal });

describe("gradeLog, hardened rules", () => {
  it("resolves an honest run whose canaries came out as planted", () => {
    const g = gradeLog(tests, log(honest, 1), { rules: "hardened", canaries });
    expect(g).toMatchObject({ resolved: true, rejected: null, exitCode: 1, testsInLog: 4 });
    expect(g.canaries?.results.map((r) => r.observed)).toEqual(["PASSED", "FAILED"]);
  });

  it("rejects a run where a canary planted to fail passed", () => {
    const flipped = honest.replace(
      "FAILED tests/t.py::test_handles_large_values - assert 3 == 4",
      "PASSED tests/t.py::test_handles_large_values",
    );
    const g = gradeLog(tests, log(flipped, 0), { rules: "hardened", canaries });
    expect(g.resolved).toBe(false);
    expect(g.rejected).toMatch(/^tampering: a test planted to fail was reported PASSED/);
  });

  it("rejects a log that lacks the canaries (a fake runner that printed PASSED for what it found)", () => {
    const fake = summary(
      ["PASSED tests/t.py::test_fix", "PASSED tests/t.py::test_old", "FAILED tests/t.py::test_decoy"],
      "1 failed, 2 passed",
    );
    const g = gradeLog(tests, log(fake, 1), { rules: "hardened", canaries });
    expect(g.rejected).toMatch(/^tampering: 2 of 2 tests planted by the grader are missing/);
  });

  it("rejects a run whose exit status disagrees with its failed canaries", () => {
    const g = gradeLog(tests, log(honest, 0), { rules: "hardened", canaries });
    expect(g.rejected).toMatch(/tampering: tests planted to fail did fail, yet the runner exited 0/);
  });

  it("rejects a killed runner whatever its log says", () => {
    for (const run of [log(honest, 137), log(honest, null, "SIGKILL")]) {
      const g = gradeLog(tests, run, { rules: "hardened", canaries });
      expect(g.resolved).toBe(false);
      expect(g.rejected).toMatch(/killed \(exit 137, signal 9\)/);
    }
  });

  it("without canaries, still rejects exit 0 with failures and exit 1 without", () => {
    const noCanaries = summary(
      ["PASSED tests/t.py::test_fix", "PASSED tests/t.py::test_old", "FAILED tests/t.py::test_x"],
      "1 failed, 2 passed",
    );
    expect(gradeLog(tests, log(noCanaries, 0), { rules: "hardened" }).rejected).toMatch(
      /exited 0 but the log shows failed tests/,
    );
    const allPass = summary(["PASSED tests/t.py::test_fix", "PASSED tests/t.py::test_old"], "2 passed");
    expect(gradeLog(tests, log(allPass, 1), { rules: "hardened" }).rejected).toMatch(
      /exited with 1 but reported no failed test/,
    );
    expect(gradeLog(tests, log(allPass, 0), { rules: "hardened" })).toMatchObject({
      resolved: true,
      rejected: null,
    });
  });

  it("reads the harness's markers, not ones a test printed", () => {
    // A test prints an end marker and an exit code 0 of its own; the harness's come last.
    const forged = `${honest.split("\n").slice(0, 2).join("\n")}\n>>>>> End Test Output\n>>>>> Test Exit Code: 0\n${honest.split("\n").slice(2).join("\n")}`;
    const saved = log(forged, 1);
    const read = readTestOutput(saved);
    expect("error" in read ? null : read.exitCode).toBe(1);
    expect(gradeLog(tests, saved, { rules: "hardened", canaries })).toMatchObject({
      resolved: true,
      exitCode: 1,
    });
  });

  it("says what is wrong with a log it did not write", () => {
    expect(gradeLog(tests, "PASSED tests/t.py::test_fix\n", { rules: "hardened" }).rejected).toMatch(
      /no ">>>>> Start Test Output" line/,
    );
  });

  it("grades a saved log again to the same verdict (pure)", () => {
    const saved = log(honest, 1);
    expect(gradeLog(tests, saved, { rules: "hardened", canaries })).toEqual(
      gradeLog(tests, saved, { rules: "hardened", canaries }),
    );
  });
});

/**
 * more-itertools' `last()` made to return the first item, graded with pytest 9.1: its test's own line
 * says PASSED and the failures are SUBFAILED lines (the `self.subTest` blocks). The PASS_TO_PASS test
 * is broken, so the patch must not resolve under hardened rules (it did before: "4 failed, 593
 * passed" was graded resolved); SWE-bench's parser reads no
 * SUBFAILED line, and `--rules swebench` keeps its verdict (docs/grading.md).
 */
const brokenLast: GradedTests = {
  FAIL_TO_PASS: ["tests/test_more.py::IterIndexTests::test_basic"],
  PASS_TO_PASS: ["tests/test_more.py::LastTests::test_basic", "tests/test_more.py::LastTests::test_default"],
  log_parser: "pytest",
};
const brokenLastLog = log(
  summary(
    [
      "PASSED tests/test_more.py::IterIndexTests::test_basic",
      "PASSED tests/test_more.py::LastTests::test_basic",
      "PASSED tests/test_more.py::LastTests::test_default",
      "SUBFAILED(iterable=[0, 1, 2]) tests/test_more.py::LastTests::test_basic - AssertionError: 0 != 2",
      "SUBFAILED(iterable=range(3)) tests/test_more.py::LastTests::test_basic - AssertionError: 0 != 2",
      "SUBFAILED(iterable='abc') tests/test_more.py::LastTests::test_basic - AssertionError: 'a' != 'c'",
      // A test that fails with the gold patch too (graded on neither list), as in the real run.
      "FAILED tests/test_recipes.py::SlidingWindowTests::test_dq - ImportError",
    ],
    "4 failed, 3 passed, 9 subtests passed",
  ),
  1,
);

describe("gradeLog on pytest 9's subtests", () => {
  it("hardened: a failed subtest fails its test, so a PASS_TO_PASS test broken in a subtest is not resolved", () => {
    const g = gradeLog(brokenLast, brokenLastLog, { rules: "hardened" });
    expect(g.rejected).toBeNull();
    expect(g.tests_status.PASS_TO_PASS.failure).toEqual(["tests/test_more.py::LastTests::test_basic"]);
    expect(g.resolved).toBe(false);
  });

  it("swebench: SWE-bench's parser reads no SUBFAILED line, and its verdict is kept", () => {
    const g = gradeLog(brokenLast, brokenLastLog, { rules: "swebench" });
    expect(g.tests_status.PASS_TO_PASS.failure).toEqual([]);
    expect(g.resolved).toBe(true);
  });
});

describe("gradeLog, swebench rules", () => {
  it("follows SWE-bench: forged lines before the real end marker count, the first exit code wins", () => {
    // SWE-bench slices at the first end marker and reads the first exit code: a test that prints
    // both ahead of the harness's decides the verdict there.
    const forged = [
      "PASSED tests/t.py::test_fix",
      "PASSED tests/t.py::test_old",
      ">>>>> End Test Output",
      ">>>>> Test Exit Code: 0",
      "FAILED tests/t.py::test_fix",
    ].join("\n");
    const g = gradeLog(tests, log(forged, 1), { rules: "swebench" });
    expect(g.resolved).toBe(true);
    expect(g.canaries).toBeNull();
    expect(gradeLog(tests, log(forged, 1), { rules: "hardened" }).resolved).toBe(false);
  });
});
