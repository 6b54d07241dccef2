import { describe, expect, it } from "vitest";
import { problemStatement, stripAnsi, testInWords } from "./issue.js";

const PATCH =
  "diff --git a/lib/core.py b/lib/core.py\n--- a/lib/core.py\n+++ b/lib/core.py\n@@ -1 +1 @@\n-    return a\n+    return a + b\n";

/** A pytest failure section as `-rA --tb=short` prints it, coloured when `color` is set. */
function log(id: string, color = false): string {
  const c = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const title = id.split("::").slice(1).join(".");
  return [
    c("1", `_____ ${title} _____`),
    "    def test_x():",
    `>       assert add(1, 2) == 3`,
    c("31", "E       assert 1 == 3"),
    c("31", "E        +  where 1 = add(1, 2)"),
    c("32", "===== short test summary info ====="),
    `FAILED ${id}`,
  ].join("\n");
}

describe("the issue text of a mirrored task", () => {
  it("reads a log a repository forces colour on: what happens is kept", () => {
    const id = "tests/test_add.py::test_add_two";
    expect(stripAnsi(log(id, true))).toBe(log(id));
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      failing: [{ id, body: "    total = add(1, 2)\n    assert total == 3\n" }],
      log: log(id, true),
      patch: PATCH,
    });
    expect(text).toContain("What happens:\n\n    assert 1 == 3");
    expect(text).not.toContain("\x1b");
  });

  it("dedents the reproduction: the test body's lines keep their relative indentation", () => {
    const body = "    for n in (1, 2):\n        assert add(n, 0) == n\n    assert add(1, 2) == 3";
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      failing: [{ id: "tests/test_add.py::test_x", body }],
      log: log("tests/test_add.py::test_x"),
      patch: PATCH,
    });
    expect(text).toContain(
      "Steps to reproduce:\n\n    for n in (1, 2):\n        assert add(n, 0) == n\n    assert add(1, 2) == 3\n",
    );
  });

  it("keeps the failing line of a long test, cutting the middle instead", () => {
    const setup = Array.from({ length: 30 }, (_, i) => `    value_${i} = add(${i}, 0)`);
    const body = [...setup, "    assert add(1, 2) == 3", "    print('after')"].join("\n");
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      failing: [{ id: "tests/test_add.py::test_x", body }],
      log: log("tests/test_add.py::test_x"),
      patch: PATCH,
    });
    const steps = text.split("Steps to reproduce:\n\n")[1]?.split("\n\n")[0] ?? "";
    expect(steps).toContain("    value_0 = add(0, 0)");
    expect(steps).toContain("    ...");
    expect(steps.trimEnd().endsWith("assert add(1, 2) == 3")).toBe(true);
    expect(steps.split("\n").length).toBeLessThanOrEqual(15);
  });

  it("names parametrized cases with their parameters, and never the first check again", () => {
    expect(testInWords("tests/t.py::TestParse::test_lower_month[2021-01]", "pytest")).toBe(
      "parse: lower month (with 2021-01)",
    );
    const ids = ["tests/t.py::test_sum[a]", "tests/t.py::test_sum[b]", "tests/t.py::test_sum[b]"];
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      failing: ids.map((id) => ({ id, body: undefined })),
      log: log(ids[0] as string),
      patch: PATCH,
    });
    expect(text).toContain('The same goes wrong for "sum (with b)".');
    // the title, the symptom (there are no steps to point at) and the expectation, not the list
    expect(text.match(/sum \(with a\)/gi)).toHaveLength(3);
  });

  it("with no steps left, never points at steps below", () => {
    const id = "tests/test_add.py::test_x";
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      // every line of the body names the patch's changed code: nothing is left to show
      failing: [{ id, body: "    return a + b\n" }],
      log: log(id),
      patch: PATCH,
    });
    expect(text).not.toContain("Steps to reproduce");
    expect(text).not.toMatch(/steps (below|above)/);
    expect(text).toContain('The check "x" gives a different result from the one it should.');
  });

  it("says an error is expected when the test expects one", () => {
    const id = "tests/test_add.py::test_rejects";
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      failing: [{ id, body: "    with pytest.raises(ValueError):\n        add('a', None)\n" }],
      log: log(id),
      patch: PATCH,
    });
    expect(text).toContain("the steps above raise the error it expects");
    expect(text).not.toContain("run without an error");
  });

  it("asks for a feature by what it adds", () => {
    const id = "tests/test_more.py::SubfactorialTests::test_basic";
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      failing: [{ id, body: "    self.assertEqual(mi.subfactorial(4), 9)\n" }],
      log: log(id),
      patch: PATCH,
      adds: [
        { kind: "function", name: "subfactorial" },
        { kind: "keyword", name: "step", of: "windowed" },
      ],
    });
    expect(text.split("\n")[0]).toBe("Add subfactorial, keyword step of windowed");
    expect(text).toContain(
      "Please add a new function `subfactorial` and a new keyword argument `step` of `windowed`.",
    );
    expect(text).toContain("Steps to reproduce:\n\n    self.assertEqual(mi.subfactorial(4), 9)");
  });
});

describe("what happens, from other runners' reports", () => {
  it("mocha's JSON: the error's message, expected and actual", () => {
    const report = {
      stats: { tests: 1, passes: 0, failures: 1 },
      tests: [],
      passes: [],
      pending: [],
      failures: [
        {
          title: "trims",
          fullTitle: "parse trims",
          err: { message: "expected '1.2.3 ' to equal '1.2.3'", expected: "1.2.3", actual: "1.2.3 " },
        },
      ],
    };
    const text = problemStatement({
      logParser: "mocha-json",
      language: "javascript",
      failing: [{ id: "parse trims", body: undefined }],
      log: `> mocha --reporter json\n${JSON.stringify(report, null, 2)}\n`,
      patch: PATCH,
    });
    expect(text).toContain(
      "What happens:\n\n    expected '1.2.3 ' to equal '1.2.3'\n    expected: \"1.2.3\"\n    actual: \"1.2.3 \"",
    );
  });

  it("jest's JSON: the failure message up to its stack", () => {
    const report = {
      numTotalTests: 1,
      testResults: [
        {
          name: "/workspace/a.test.js",
          assertionResults: [
            {
              ancestorTitles: ["ms"],
              title: "parses 1d",
              status: "failed",
              failureMessages: [
                "Error: expect(received).toBe(expected)\n\nExpected: 86400000\nReceived: 0\n    at Object.<anonymous> (a.test.js:3:5)",
              ],
            },
          ],
        },
      ],
    };
    const text = problemStatement({
      logParser: "jest-json",
      language: "javascript",
      failing: [{ id: "ms > parses 1d", body: undefined }],
      log: JSON.stringify(report),
      patch: PATCH,
    });
    expect(text).toContain(
      "What happens:\n\n    Error: expect(received).toBe(expected)\n    Expected: 86400000\n    Received: 0\n",
    );
    expect(text).not.toContain("at Object");
  });

  it("tap's YAML diff: one line expected, one found", () => {
    const log = [
      "# Subtest: test/ranges/valid.js",
      "    # Subtest: valid range test",
      "        not ok 1 - validRange(1.0.0 - 2.0.0) === >=1.0.0 <=2.0.1 undefined",
      "          ---",
      "          compare: ===",
      "          diff: |",
      "            --- expected",
      "            +++ actual",
      "            @@ -1,1 +1,1 @@",
      "            ->=1.0.0 <=2.0.1",
      "            +>=1.0.0 <=2.0.0",
      "          ...",
    ].join("\n");
    const text = problemStatement({
      logParser: "node-tap",
      language: "javascript",
      failing: [
        {
          id: "test/ranges/valid.js > valid range test > validRange(1.0.0 - 2.0.0) === >=1.0.0 <=2.0.1 undefined",
          body: undefined,
        },
      ],
      log,
      patch: PATCH,
    });
    expect(text).toContain("What happens:\n\n    expected: >=1.0.0 <=2.0.1\n    actual: >=1.0.0 <=2.0.0\n");
    // The file is where the check lives, not what it checks.
    expect(text.split("\n")[0]).toBe(
      "Valid range test: validRange(1.0.0 - 2.0.0) === >=1.0.0 <=2.0.1 undefined: wrong result",
    );
    expect(text).toContain("holds, with no error and no wrong value.");
  });

  it("pytest 9's subtest sections count as the test's", () => {
    const id = "tests/test_more.py::LastTests::test_basic";
    const sub = [
      "_ LastTests.test_basic (xs=[1, 2], wrapper=<built-in function iter>) _",
      ">       self.assertEqual(last(xs), want)",
      "E       AssertionError: 1 != 2",
      "===== short test summary info =====",
    ].join("\n");
    const text = problemStatement({
      logParser: "pytest",
      language: "python",
      failing: [{ id, body: undefined }],
      log: sub,
      patch: PATCH,
    });
    expect(text).toContain("What happens:\n\n    AssertionError: 1 != 2");
  });
});
