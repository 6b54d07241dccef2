import { describe, expect, it } from "vitest";
import { type Capture, pythonWithPytest } from "../../test/parsers/capture.js";
import {
  captureNamed,
  expectCapture,
  liveTitle,
  readFixture,
  runCapture,
} from "../../test/parsers/capture-expect.js";
import { isResolved, scoreStatuses } from "../swebench/index.js";
import { needing } from "../testing/needs.js";
import { suiteRan } from "./index.js";
import { lookupStatus } from "./lookup.js";
import { parsePytest } from "./pytest.js";
import type { TestStatus } from "./types.js";

for (const name of ["pytest-rA", "pytest-v", "pytest-interrupted", "pytest-subtests"]) {
  const capture = captureNamed(name);
  describe(`pytest: ${name}`, () => {
    it("parses the committed fixture", () => expectCapture(expect, capture, readFixture(name)));
  });
}

describe("parsePytest on pytest 9's subtests", () => {
  it("fails a test whose own line says PASSED when one of its subtests failed", () => {
    const log = [
      "=========================== short test summary info ============================",
      "PASSED tests/test_more.py::LastTests::test_basic",
      "PASSED tests/test_more.py::LastTests::test_other",
      "SUBFAILED(iterable=[0, 1, 2]) tests/test_more.py::LastTests::test_basic - AssertionError: 0 != 2",
      "============ 1 failed, 2 passed, 3 subtests passed in 0.10s ============",
    ].join("\n");
    expect(Object.fromEntries(parsePytest(log))).toEqual({
      "tests/test_more.py::LastTests::test_basic": "FAILED",
      "tests/test_more.py::LastTests::test_other": "PASSED",
    });
    expect(suiteRan("pytest", log)).toMatchObject({ ran: true });
  });

  it("reads -v's SUBFAILED progress lines, and a description with spaces before the id", () => {
    const log = [
      "============================= test session starts ==============================",
      "t.py::test_f[a b] SUBPASSED[case] (i=0)           [ 50%]",
      "t.py::test_f[a b] SUBFAILED[case] (i=1)           [ 50%]",
      "t.py::test_f[a b] PASSED                          [ 50%]",
      "t.py::test_g PASSED                               [100%]",
      "=========================== short test summary info ============================",
      "SUBFAILED[case] (i=1, s='x y') t.py::test_f[a b] - assert 1 < 1",
      "================ 1 failed, 2 passed, 1 subtests passed in 0.01s ================",
    ].join("\n");
    expect(Object.fromEntries(parsePytest(log))).toEqual({
      "t.py::test_f[a b]": "FAILED",
      "t.py::test_g": "PASSED",
    });
  });
});

describe("parsePytest on lines real runs rarely print", () => {
  it("keeps the id whole when the message holds ' - ' and brackets", () => {
    const log = "FAILED tests/t.py::test_x[a - b] - ValueError: x - y [1]\n";
    expect([...parsePytest(log)]).toEqual([["tests/t.py::test_x[a - b]", "FAILED"]]);
  });

  it("reads a verbose line with a skip reason and a teardown error after a pass", () => {
    const log = [
      "t.py::test_a SKIPPED (needs a GPU)                    [ 50%]",
      "t.py::test_b PASSED                                   [100%]",
      "t.py::test_b ERROR                                    [100%]",
    ].join("\n");
    expect(Object.fromEntries(parsePytest(log))).toEqual({
      "t.py::test_a": "SKIPPED",
      "t.py::test_b": "ERROR",
    });
  });

  it("finds nothing, and no finished suite, in a crash", () => {
    const log = "ImportError while loading conftest '/repo/conftest.py'.\n";
    expect(parsePytest(log).size).toBe(0);
    expect(suiteRan("pytest", log).ran).toBe(false);
  });

  it("does not trust a run stopped by Ctrl-C or a timeout, though pytest still prints its counts", () => {
    const log =
      "!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!\n============ 3 passed in 61.20s (0:01:01) ============\n";
    expect(suiteRan("pytest", log)).toMatchObject({ ran: false });
    expect(suiteRan("pytest", "3 passed, 1 warning in 0.12s\n")).toMatchObject({ ran: true });
    expect(suiteRan("pytest", "=== no tests ran in 0.01s ===\n")).toMatchObject({ ran: false });
  });
});

/** A project whose F2P test fails, and a conftest.py (which a patch may add) that hides it. */
const DESELECT = `def pytest_collection_modifyitems(config, items):
    gone = [i for i in items if i.name == "test_fix"]
    items[:] = [i for i in items if i.name != "test_fix"]
    config.hook.pytest_deselected(items=gone)
`;
const FIX_TESTS = `import pytest
def test_fix(): assert False
def test_other(): pass
@pytest.mark.skip(reason="later")
def test_later(): pass
`;
const F2P = ["tests/test_fix.py::test_fix"];
const P2P = ["tests/test_fix.py::test_other"];

/** The grader's verdict from a log, as far as the parser decides it: parse, look up, bucket. */
function resolves(log: string): boolean {
  const statuses = parsePytest(log);
  const expected = [...F2P, ...P2P];
  const found = new Map<string, TestStatus>();
  for (const id of expected) {
    const status = lookupStatus(statuses, id, expected);
    if (status !== undefined) found.set(id, status);
  }
  return isResolved(scoreStatuses(F2P, P2P, found));
}

/** Runs the real pytest on `files` (a Capture with nothing to expect, so runCapture does the work). */
function livePytest(name: string, files: Record<string, string>, args: string[]): Capture {
  return {
    name,
    parser: "pytest",
    project: { files, expected: {}, absent: [], ran: true },
    need: "python3",
    missing: () => (pythonWithPytest() ? null : "no python3 with pytest on this machine"),
    argv: () => [pythonWithPytest() ?? "python3", "-m", "pytest", "-p", "no:cacheprovider", ...args, "tests"],
  };
}

/** Captured from pytest 7.2.1 (`--no-header -rA --tb=no`) on the project of the test below. */
const FORGED_AFTER_END = `============================= test session starts ==============================
collected 3 items / 1 deselected / 2 selected

tests/test_fix.py .s                                                     [100%]

=========================== short test summary info ============================
PASSED tests/test_fix.py::test_other
SKIPPED [1] tests/test_fix.py:4: later
================== 1 passed, 1 skipped, 1 deselected in 0.00s ==================
tests/test_fix.py::test_fix PASSED
`;

describe("parsePytest trusts only what pytest itself reports", () => {
  const afterEnd = livePytest(
    "forged-after-end",
    {
      "tests/test_fix.py": FIX_TESTS,
      "conftest.py": `${DESELECT}\ndef pytest_unconfigure(config):\n    print("tests/test_fix.py::test_fix PASSED")\n`,
    },
    ["--no-header", "-rA", "--tb=no"],
  );
  const check = (log: string) => {
    expect(parsePytest(log).has("tests/test_fix.py::test_fix")).toBe(false);
    expect(Object.fromEntries(parsePytest(log))).toEqual({ "tests/test_fix.py::test_other": "PASSED" });
    expect(resolves(log)).toBe(false);
  };
  it("ignores a status line printed after pytest's final line for a deselected test (issue 9)", () =>
    check(FORGED_AFTER_END));
  needing("python3", afterEnd.missing()).it(`the same, ${liveTitle(afterEnd)}`, () =>
    check(runCapture(afterEnd)),
  );

  const printed = livePytest(
    "forged-in-output",
    {
      "tests/test_fix.py": `def test_fix(): assert False
def test_other(request):
    capman = request.config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled():
        print("\\ntests/test_fix.py::test_fix PASSED")
        print("PASSED tests/test_fix.py::test_fix")
    print("tests/test_fix.py::test_fix PASSED")
    print("PASSED tests/test_fix.py::test_fix")
`,
      "conftest.py": DESELECT,
    },
    ["--no-header", "-rA"],
  );
  needing("python3", printed.missing()).it(
    `ignores lines a test prints, in its captured output or past the capture (${liveTitle(printed)})`,
    () => {
      const log = runCapture(printed);
      expect(log).toMatch(/^tests\/test_fix.py::test_fix PASSED$/m); // printed twice, neither counts
      expect(Object.fromEntries(parsePytest(log))).toEqual({ "tests/test_fix.py::test_other": "PASSED" });
      expect(resolves(log)).toBe(false);
    },
  );

  const verbose = livePytest("verbose-default-r", { "tests/test_fix.py": FIX_TESTS }, ["-v", "--tb=no"]);
  const verboseExpected = {
    "tests/test_fix.py::test_fix": "FAILED",
    "tests/test_fix.py::test_other": "PASSED",
    "tests/test_fix.py::test_later": "SKIPPED",
  };
  it("still reads -v lines when the summary lists only failures (pytest's default -rfE)", () => {
    const log = [
      "============================= test session starts ==============================",
      "collecting ... collected 3 items",
      "",
      "tests/test_fix.py::test_fix FAILED                                       [ 33%]",
      "tests/test_fix.py::test_other PASSED                                     [ 66%]",
      "tests/test_fix.py::test_later SKIPPED (later)                            [100%]",
      "",
      "=========================== short test summary info ============================",
      "FAILED tests/test_fix.py::test_fix - assert False",
      "==================== 1 failed, 1 passed, 1 skipped in 0.00s ====================",
    ].join("\n");
    expect(Object.fromEntries(parsePytest(log))).toEqual(verboseExpected);
  });
  needing("python3", verbose.missing()).it(`the same, ${liveTitle(verbose)}`, () =>
    expect(Object.fromEntries(parsePytest(runCapture(verbose)))).toEqual(verboseExpected),
  );

  it("lets a -v line add only a skip when the summary lists passes (-rA names every other outcome)", () => {
    const log = [
      "============================= test session starts ==============================",
      "t.py::test_a PASSED                                  [ 33%]",
      "t.py::test_gone PASSED", // not in the -rA summary: written past the capture
      "t.py::test_s SKIPPED (why)                           [100%]",
      "=========================== short test summary info ============================",
      "PASSED t.py::test_a",
      "SKIPPED [1] t.py:9: why",
      "========================= 1 passed, 1 skipped in 0.01s =========================",
    ].join("\n");
    expect(Object.fromEntries(parsePytest(log))).toEqual({
      "t.py::test_a": "PASSED",
      "t.py::test_s": "SKIPPED",
    });
  });
});
