import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { TestStatus } from "../../src/parsers/index.js";

/**
 * Small projects whose tests cover every outcome a parser must read: pass, fail, skip, xfail/todo,
 * an error outside any test (collection, import or compile error) and parametrized tests. capture.ts
 * runs the real runner on them; the parser tests check the result against `expected`.
 */
export interface Project {
  files: Record<string, string>;
  /** Statuses the parser must report; ids with `<root>` stand for the project's temp dir. */
  expected: Record<string, TestStatus>;
  /** Ids that must not be in the map (a recap echo, an XPASS, a skip with no id in the log). */
  absent: string[];
  /** Whether the log shows the suite ran to its end. */
  ran: boolean;
}

export function writeProject(dir: string, project: Project): void {
  for (const [path, text] of Object.entries(project.files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const PYTEST_FILES = {
  "test_mix.py": `import pytest
def test_pass(): assert 1 + 1 == 2
def test_fail(): assert 1 == 2, 'one is not two - really'
@pytest.mark.skip(reason='not today')
def test_skip(): pass
def test_skip_inside(): pytest.skip('inside')
@pytest.mark.xfail(reason='known')
def test_xfail(): assert False
@pytest.mark.xfail
def test_xpass(): pass
@pytest.fixture
def broken(): raise RuntimeError('fixture broke')
def test_error(broken): pass
@pytest.mark.parametrize('x', [1, 2, 'a b', '[br] - ket'])
def test_param(x): assert x != 2
class TestK:
    def test_m(self): pass
`,
  "test_coll.py": "import nonexistent_module_for_acilab\ndef test_never(): pass\n",
};

const PYTEST_SUMMARY: Record<string, TestStatus> = {
  "test_mix.py::test_pass": "PASSED",
  "test_mix.py::test_fail": "FAILED",
  "test_mix.py::test_xfail": "XFAIL",
  "test_mix.py::test_error": "ERROR",
  "test_mix.py::test_param[1]": "PASSED",
  "test_mix.py::test_param[2]": "FAILED",
  "test_mix.py::test_param[a b]": "PASSED",
  "test_mix.py::test_param[[br] - ket]": "PASSED",
  "test_mix.py::TestK::test_m": "PASSED",
  "test_coll.py": "ERROR",
};

/** `-rA` alone: skips are `SKIPPED [1] file:line: reason`, with no test id. */
export const PYTEST_RA: Project = {
  files: PYTEST_FILES,
  expected: PYTEST_SUMMARY,
  absent: ["test_mix.py::test_xpass", "test_mix.py::test_skip", "test_mix.py::test_param[[br]"],
  ran: true,
};

/** `-v -rA --color=yes`: status-at-end lines name the skipped tests too. */
export const PYTEST_VERBOSE: Project = {
  files: PYTEST_FILES,
  expected: {
    ...PYTEST_SUMMARY,
    "test_mix.py::test_skip": "SKIPPED",
    "test_mix.py::test_skip_inside": "SKIPPED",
  },
  absent: ["test_mix.py::test_xpass"],
  ran: true,
};

/** Without --continue-on-collection-errors, one broken file stops the whole run before any test. */
export const PYTEST_INTERRUPTED: Project = {
  files: PYTEST_FILES,
  expected: { "test_coll.py": "ERROR" },
  absent: ["test_mix.py::test_pass"],
  ran: false,
};

/**
 * pytest ≥ 9's subtests: a unittest test whose `self.subTest` blocks fail is still reported PASSED on
 * its own line, with a `SUBFAILED(...)` line per failed block; the `subtests` fixture's test fails
 * itself as well. A failed subtest must fail its test.
 */
export const PYTEST_SUBTESTS: Project = {
  files: {
    "tests/test_last.py": `import unittest


def last(xs):
    return xs[0]


class LastTests(unittest.TestCase):
    def test_basic(self):
        for xs, want in [([1], 1), ([1, 2], 2), ([1, 2, 3], 3)]:
            with self.subTest(xs=xs):
                self.assertEqual(last(xs), want)

    def test_single(self):
        with self.subTest(xs=[7]):
            self.assertEqual(last([7]), 7)


def test_fixture(subtests):
    for i in range(3):
        with subtests.test(msg="case", i=i):
            assert i < 2


def test_plain():
    assert last([4]) == 4
`,
  },
  expected: {
    "tests/test_last.py::LastTests::test_basic": "FAILED",
    "tests/test_last.py::LastTests::test_single": "PASSED",
    "tests/test_last.py::test_fixture": "FAILED",
    "tests/test_last.py::test_plain": "PASSED",
  },
  absent: [],
  ran: true,
};

/** For node --test, both reporters; `<root>/broken.test.mjs` fails to import. */
export const NODE_TESTS: Project = {
  files: {
    "t.test.mjs": `import { describe, it, test } from "node:test";
import assert from "node:assert/strict";
describe("compare", () => {
  it("orders versions", () => assert.equal(1, 1));
  it("breaks # sometimes", () => assert.equal(1, 2));
  describe("prerelease", () => {
    it("sorts first", () => {});
    it.skip("later", () => {});
  });
});
test("top level", () => {});
test("skipped", { skip: "later" }, () => {});
test("todo one", { todo: true }, () => {});
test("todo failing", { todo: "wip" }, () => { throw new Error("x"); });
test("parent", async (t) => {
  await t.test("child ok", () => {});
  await t.test("child bad", () => { throw new Error("bad"); });
});
for (const n of [1, 2, 3]) test(\`param \${n}\`, () => assert.notEqual(n, 2));
`,
    "broken.test.mjs":
      'import "./missing-module.mjs";\nimport { test } from "node:test";\ntest("never", () => {});\n',
  },
  expected: {
    "compare > orders versions": "PASSED",
    "compare > breaks # sometimes": "FAILED",
    "compare > prerelease > sorts first": "PASSED",
    "compare > prerelease > later": "SKIPPED",
    "compare > prerelease": "PASSED",
    compare: "FAILED",
    "top level": "PASSED",
    skipped: "SKIPPED",
    "todo one": "SKIPPED",
    "todo failing": "SKIPPED",
    "parent > child ok": "PASSED",
    "parent > child bad": "FAILED",
    parent: "FAILED",
    "param 1": "PASSED",
    "param 2": "FAILED",
    "param 3": "PASSED",
    "<root>/broken.test.mjs": "ERROR",
  },
  absent: ["child bad", "breaks # sometimes", "never"],
  ran: true,
};

/** For vitest --reporter=json; console noise around the report, two files that fail to load. */
export const VITEST_TESTS: Project = {
  files: {
    "a.test.ts": `import { describe, expect, it, test } from "vitest";
console.log('noise before the report: { "numTotalTests": oops');
describe("math", () => {
  it("adds", () => expect(1 + 1).toBe(2));
  it("breaks", () => expect(1).toBe(2));
  describe("nested", () => {
    it.skip("later", () => {});
    it.todo("some day");
  });
  it.each([1, 2, 3])("param %i", (n) => expect(n).not.toBe(2));
  it.fails("expected failure", () => expect(1).toBe(2));
});
test("top level", () => {});
`,
    "broken.test.ts":
      'import "./missing-module.js";\nimport { test } from "vitest";\ntest("never", () => {});\n',
    "syntax.test.ts": "const x: number = ;\n",
  },
  expected: {
    "math > adds": "PASSED",
    "math > breaks": "FAILED",
    "math > nested > later": "SKIPPED",
    "math > nested > some day": "SKIPPED",
    "math > param 1": "PASSED",
    "math > param 2": "FAILED",
    "math > param 3": "PASSED",
    "math > expected failure": "PASSED",
    "top level": "PASSED",
    "<root>/broken.test.ts": "ERROR",
    "<root>/syntax.test.ts": "ERROR",
  },
  absent: ["never", "math adds"],
  ran: true,
};
