import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parsePytest } from "../parsers/index.js";
import { guardTestCommand } from "./runner-guard.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-guard-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
function run(argv: string[], cwd: string): { out: string; code: number } {
  try {
    return {
      out: execFileSync(argv[0] as string, argv.slice(1), { cwd, encoding: "utf8", stdio: "pipe" }),
      code: 0,
    };
  } catch (err) {
    const e = err as { stdout: string; status: number };
    return { out: e.stdout, code: e.status };
  }
}

const COMMAND = ["/usr/bin/python3", "-m", "pytest", "-rA", "-p", "no:cacheprovider", "tests"];
const FILES = {
  "calc.py": "def add(a, b):\n    return a - b\n",
  "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
};
const FAKE = "print('PASSED tests/test_calc.py::test_add')\nprint('==== 1 passed in 0.01s ====')\n";

describe("guardTestCommand", () => {
  it("rewrites python -m pytest, keeping interpreter flags and pytest's arguments", () => {
    const g = guardTestCommand(["python3", "-X", "dev", "-m", "pytest", "-rA", "tests"]);
    expect(g.argv.slice(0, 4)).toEqual(["python3", "-X", "dev", "-c"]);
    expect(g.argv.slice(5)).toEqual(["-rA", "tests"]);
    expect(g.guard).toMatch(/not the repository/);
  });

  it("leaves other commands alone", () => {
    for (const argv of [
      ["pytest", "tests"],
      ["node", "--test"],
      ["bash", "-c", "python -m pytest"],
      ["python3", "-m", "unittest"],
    ])
      expect(guardTestCommand(argv)).toEqual({ argv, guard: null });
  });

  it("a pytest.py in the repository is the runner without the guard, and is ignored with it", () => {
    const dir = repo({ ...FILES, "pytest.py": FAKE });
    expect(parsePytest(run(COMMAND, dir).out).get("tests/test_calc.py::test_add")).toBe("PASSED");
    const guarded = run(guardTestCommand(COMMAND).argv, dir);
    expect(guarded.code).toBe(1);
    expect(parsePytest(guarded.out).get("tests/test_calc.py::test_add")).toBe("FAILED");
  });

  it("keeps the working directory importable for the tests, as -m does", () => {
    const dir = repo({ ...FILES, "calc.py": "def add(a, b):\n    return a + b\n" });
    const guarded = run(guardTestCommand(COMMAND).argv, dir);
    expect(guarded.code).toBe(0);
    expect(parsePytest(guarded.out).get("tests/test_calc.py::test_add")).toBe("PASSED");
  });

  it("turns off a plugin that only the repository's own metadata declares", () => {
    const dir = repo({
      ...FILES,
      "evil.egg-info/PKG-INFO": "Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n",
      "evil.egg-info/entry_points.txt": "[pytest11]\nevil = evil_plugin\n",
      "evil_plugin.py":
        "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    o = yield\n    r = o.get_result()\n    if r.failed:\n        r.outcome = 'passed'\n",
    });
    expect(parsePytest(run(COMMAND, dir).out).get("tests/test_calc.py::test_add")).toBe("PASSED");
    const guarded = run(guardTestCommand(COMMAND).argv, dir);
    expect(parsePytest(guarded.out).get("tests/test_calc.py::test_add")).toBe("FAILED");
  });
});
