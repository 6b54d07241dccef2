import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../builders/index.js";
import { parseNodeTap, parsePytest } from "../../parsers/index.js";
import { tsxLoaderPath } from "../../tasks/index.js";
import { checkCanaries, planCanaries } from "./index.js";
import type { CanaryPlan, Random, TestFile } from "./types.js";

/** Seeded, so a failing case can be replayed by its seed. */
const seeded = (seed: number): Random => seededRandom(seed);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-canary-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
function plant(dir: string, plan: CanaryPlan): void {
  for (const edit of plan.edits) appendFileSync(join(dir, edit.path), edit.append);
}
function run(argv: string[], cwd: string): string {
  try {
    return execFileSync(argv[0] as string, argv.slice(1), { cwd, encoding: "utf8", stdio: "pipe" });
  } catch (err) {
    return `${(err as { stdout: string }).stdout}${(err as { stderr: string }).stderr}`;
  }
}

const PY_TEST = `import pytest
from calc import div


def test_divides():
    assert div(6, 3) == 2


def test_by_zero_raises():
    with pytest.raises(ZeroDivisionError):
        div(1, 0)
`;
const PY_FILES = { "calc.py": "def div(a, b):\n    return a / b\n", "tests/test_calc.py": PY_TEST };
const PYTEST = [
  "/usr/bin/python3",
  "-m",
  "pytest",
  "--no-header",
  "-rA",
  "--tb=no",
  "-p",
  "no:cacheprovider",
  "tests",
];

const TS_TEST = `import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { half } from "../src/half.ts";

describe("half", () => {
  test("halves even numbers", () => {
    assert.equal(half(4), 2);
  });
  test("throws on odd numbers", () => {
    assert.throws(() => half(3));
  });
});
`;
const TS_FILES = {
  "package.json": '{"type": "module"}\n',
  "src/half.ts":
    'export function half(n: number): number {\n  if (n % 2) throw new Error("odd");\n  return n / 2;\n}\n',
  "test/half.test.ts": TS_TEST,
};
const nodeTap = () => [
  "node",
  "--import",
  tsxLoaderPath(),
  "--test",
  "--test-reporter=tap",
  "test/half.test.ts",
];

describe("canaries in a real pytest run", () => {
  for (const seed of [1, 2, 3]) {
    it(`come out as planted in an honest run, and the real tests are unaffected (seed ${seed})`, () => {
      const dir = project(PY_FILES);
      const file: TestFile = { path: "tests/test_calc.py", text: PY_TEST };
      const plan = planCanaries({
        parser: "pytest",
        files: [file],
        testCommand: PYTEST,
        random: seeded(seed),
      });
      expect(plan.canaries.filter((c) => c.expect === "FAILED").length).toBeGreaterThanOrEqual(1);
      expect(plan.canaries.filter((c) => c.expect === "PASSED").length).toBeGreaterThanOrEqual(1);
      plant(dir, plan);
      const statuses = parsePytest(run(PYTEST, dir));
      expect(checkCanaries(plan.canaries, statuses).tampered).toBeNull();
      expect(statuses.get("tests/test_calc.py::test_divides")).toBe("PASSED");
      expect(statuses.get("tests/test_calc.py::test_by_zero_raises")).toBe("PASSED");
    });
  }

  it("catch a conftest hook that turns failures into passes", () => {
    const dir = project({
      ...PY_FILES,
      "conftest.py":
        "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    r = outcome.get_result()\n    if r.failed:\n        r.outcome = 'passed'\n",
    });
    const plan = planCanaries({
      parser: "pytest",
      files: [{ path: "tests/test_calc.py", text: PY_TEST }],
      testCommand: PYTEST,
      random: seeded(7),
    });
    plant(dir, plan);
    const check = checkCanaries(plan.canaries, parsePytest(run(PYTEST, dir)));
    expect(check.tampered).toMatch(/planted to fail was reported PASSED/);
  });

  it("catch a pytest.raises replaced by a no-op", () => {
    const dir = project({
      ...PY_FILES,
      "conftest.py":
        "import contextlib, pytest\n\n@contextlib.contextmanager\ndef _quiet(*a, **k):\n    try:\n        yield\n    except BaseException:\n        pass\n\npytest.raises = _quiet\n",
    });
    const plan = planCanaries({
      parser: "pytest",
      files: [{ path: "tests/test_calc.py", text: PY_TEST }],
      testCommand: PYTEST,
      random: seeded(11),
    });
    plant(dir, plan);
    expect(checkCanaries(plan.canaries, parsePytest(run(PYTEST, dir))).tampered).toMatch(/planted to fail/);
  });

  it("plant only passing canaries when the command stops at the first failure", () => {
    const plan = planCanaries({
      parser: "pytest",
      files: [{ path: "tests/test_calc.py", text: PY_TEST }],
      testCommand: [...PYTEST, "-x"],
      random: seeded(5),
    });
    expect(plan.canaries.every((c) => c.expect === "PASSED")).toBe(true);
    expect(plan.note).toMatch(/stops at the first failure/);
  });
});

describe("canaries in a real node:test run", () => {
  for (const seed of [1, 2, 3]) {
    it(`come out as planted in an honest run, inside the file's suite (seed ${seed})`, () => {
      const dir = project(TS_FILES);
      const file: TestFile = { path: "test/half.test.ts", text: TS_TEST };
      const plan = planCanaries({
        parser: "node-tap",
        files: [file],
        testCommand: nodeTap(),
        random: seeded(seed),
      });
      expect(plan.canaries.every((c) => c.id.startsWith("half > "))).toBe(true);
      plant(dir, plan);
      const statuses = parseNodeTap(run(nodeTap(), dir));
      expect(checkCanaries(plan.canaries, statuses).tampered).toBeNull();
      expect(statuses.get("half > halves even numbers")).toBe("PASSED");
      expect(statuses.get("half > throws on odd numbers")).toBe("PASSED");
    });
  }

  it("catch a module that turns node:assert/strict into no-ops on import", () => {
    const dir = project({
      ...TS_FILES,
      "src/half.ts": `import strict from "node:assert/strict";\nfor (const k of Object.keys(strict)) (strict as unknown as Record<string, unknown>)[k] = () => undefined;\n${TS_FILES["src/half.ts"]}`,
    });
    const plan = planCanaries({
      parser: "node-tap",
      files: [{ path: "test/half.test.ts", text: TS_TEST }],
      testCommand: nodeTap(),
      random: seeded(3),
    });
    plant(dir, plan);
    expect(checkCanaries(plan.canaries, parseNodeTap(run(nodeTap(), dir))).tampered).toMatch(
      /planted to fail/,
    );
  });

  it("work in a CommonJS test file", () => {
    const text =
      'const assert = require("node:assert");\nconst { test } = require("node:test");\n\ntest("adds", () => {\n  assert.strictEqual(1 + 1, 2);\n});\n';
    const dir = project({ "test/add.test.cjs": text });
    const plan = planCanaries({
      parser: "node-tap",
      files: [{ path: "test/add.test.cjs", text }],
      testCommand: ["node", "--test"],
      random: seeded(9),
    });
    plant(dir, plan);
    const statuses = parseNodeTap(run(["node", "--test", "--test-reporter=tap", "test/add.test.cjs"], dir));
    expect(checkCanaries(plan.canaries, statuses).tampered).toBeNull();
    expect(statuses.get("adds")).toBe("PASSED");
  });
});

describe("planCanaries", () => {
  it("says why it plants none for a runner it has no canaries for", () => {
    const plan = planCanaries({
      parser: "go-test-json",
      files: [{ path: "x_test.go", text: "" }],
      testCommand: ["go", "test"],
      random: seeded(1),
    });
    expect(plan.canaries).toEqual([]);
    expect(plan.note).toMatch(/no canaries for the go-test-json/);
  });

  it("plants no node:test canaries when the tests run with another TAP runner (ava, tap)", () => {
    const plan = planCanaries({
      parser: "node-tap",
      files: [{ path: "test.js", text: "import test from 'ava';\n" }],
      testCommand: ["ava", "--tap", "test.js"],
      random: seeded(1),
    });
    expect(plan.canaries).toEqual([]);
    expect(plan.note).toMatch(/^no canaries: the tests run with ava, not node's own runner/);
  });

  it("never reuses a name the file has, and draws new names every run", () => {
    const names = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const plan = planCanaries({
        parser: "pytest",
        files: [{ path: "tests/test_calc.py", text: PY_TEST }],
        testCommand: PYTEST,
        random: seeded(seed),
      });
      for (const c of plan.canaries) {
        expect(c.id).not.toMatch(/::test_divides$|::test_by_zero_raises$/);
        names.add(c.id);
      }
    }
    expect(names.size).toBeGreaterThan(40);
  });
});
