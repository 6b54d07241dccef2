import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Builds a small, real Python task folder for tests: a `calc` module whose `add` subtracts, a visible
 * test that passes, a hidden test that fails until fixed, and the gold patch. Returns the folder.
 */
export function makePythonTask(
  overrides: { files?: Record<string, string>; hidden?: Record<string, string> } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-task-"));
  const files: Record<string, string> = {
    "task.json": JSON.stringify({
      id: "calc-add",
      title: "add subtracts",
      language: "python",
      test_command: [
        "python3",
        "-m",
        "pytest",
        "--no-header",
        "-rA",
        "--tb=no",
        "-p",
        "no:cacheprovider",
        "tests",
      ],
      log_parser: "pytest",
      FAIL_TO_PASS: ["tests/test_hidden.py::test_add"],
      PASS_TO_PASS: ["tests/test_calc.py::test_mul"],
    }),
    "issue.md": "Adding two numbers gives the wrong answer: `add(2, 3)` returns -1, expected 5.\n",
    "repo/calc.py": "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
    "repo/tests/test_calc.py": "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
    "repo/tests/conftest.py":
      "import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n",
    "hidden/tests/test_hidden.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    "gold.patch": [
      "diff --git a/calc.py b/calc.py",
      "--- a/calc.py",
      "+++ b/calc.py",
      "@@ -1,5 +1,5 @@",
      " def add(a, b):",
      "-    return a - b",
      "+    return a + b",
      " ",
      " ",
      " def mul(a, b):",
      "",
    ].join("\n"),
    ...overrides.files,
  };
  for (const [path, content] of Object.entries({ ...files, ...prefix("hidden/", overrides.hidden ?? {}) })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function prefix(p: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [p + k, v]));
}

/** The Acme task's page cursors, for tests that check what an agent asked for. */
export { cursorFor } from "./acme/index.js";
