/**
 * more-itertools' 49c991e shape: a fix whose tests are `self.subTest` blocks. Under pytest ≥ 9 a
 * failing subtest prints `SUBFAILED(…) id` while the test's own line says PASSED, so the mirror used to
 * skip the fix as "none of its tests fails". Needs an interpreter whose pytest is 9 or later (pyenv's
 * here); the environment shows it to the sandbox through system site packages, installing nothing.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { type BuildReport, mirror } from "../../src/builders/mirror.js";
import { commitFiles, initRepo } from "../../src/builders/testing.js";
import { runInstance } from "../../src/builders/verify.js";
import type { EnvironmentSpec, Instance } from "../../src/swebench/index.js";
import { needing } from "../../src/testing/needs.js";
import { pythonWithPytest9 } from "../parsers/capture.js";

const python = pythonWithPytest9();
const { describe, it } = needing("pytest9", !python && "no python3 or pyenv interpreter with pytest ≥ 9");

const MORE = `def last(iterable):
    return list(iterable)[0]


def first(iterable):
    return list(iterable)[0]
`;
const TESTS = `import unittest

import more


class FirstTests(unittest.TestCase):
    def test_basic(self):
        for items in ([1], [1, 2], "ab"):
            with self.subTest(items=items):
                self.assertEqual(more.first(items), items[0])
`;
const TESTS_FIXED = `${TESTS}

class LastTests(unittest.TestCase):
    def test_basic(self):
        for items, want in (([1], 1), ([1, 2], 2), ("abc", "c")):
            with self.subTest(items=items):
                self.assertEqual(more.last(items), want)
`;

let root: string;
let report: BuildReport;

beforeAll(async () => {
  if (!python) return;
  root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-mirror-subtests-")));
  chmodSync(root, 0o755);
  mkdirSync(join(root, "store"), { mode: 0o755 });
  process.env.ACILAB_ENV_DIR = join(root, "store");
  const repo = join(root, "more");
  await initRepo(repo);
  await commitFiles(repo, { "more.py": MORE, "tests/test_more.py": TESTS }, "more");
  await commitFiles(
    repo,
    {
      "more.py": MORE.replace(
        "    return list(iterable)[0]\n\n\ndef first",
        "    return list(iterable)[-1]\n\n\ndef first",
      ),
      "tests/test_more.py": TESTS_FIXED,
    },
    "last: the last item, not the first",
  );
  const spec: EnvironmentSpec = { python, system_site_packages: true, install: ["true"], indexes: "none" };
  report = await mirror({ repo, out: join(root, "out", "t.jsonl"), environment: spec });
});

afterAll(() => {
  delete process.env.ACILAB_ENV_DIR;
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("a fix tested in subtests, under pytest ≥ 9", () => {
  it("is kept: the failed subtests fail their test", async () => {
    expect(report.candidates.map((c) => c.reason)).toEqual(["1 FAIL_TO_PASS, 1 PASS_TO_PASS"]);
    const instance = report.instances[0] as Instance;
    expect(instance.FAIL_TO_PASS).toEqual(["tests/test_more.py::LastTests::test_basic"]);
    const base = await runInstance(instance, join(root, "out"), null);
    expect(base.log).toMatch(/^SUBFAILED\(items=\[1, 2\]\) tests\/test_more.py::LastTests::test_basic/m);
    expect(base.statuses.get("tests/test_more.py::LastTests::test_basic")).toBe("FAILED");
    const gold = await runInstance(instance, join(root, "out"), instance.patch);
    expect(gold.statuses.get("tests/test_more.py::LastTests::test_basic")).toBe("PASSED");
  });
});
