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
    expect(text.match(/sum \(with a\)/gi)).toHaveLength(2); // the title and the expectation, not the list
  });
});
