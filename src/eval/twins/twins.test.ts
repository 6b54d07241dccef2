import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../builders/index.js";
import { type LogParserName, parseJestJson, parseNodeTap, parsePytest } from "../../parsers/index.js";
import type { Parser } from "../../syntax/index.js";
import type { TestFile } from "../canaries/index.js";
import { checkTwins, planTwins, type TwinPlan, twinParsers } from "./index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

let pyParser: (path: string) => Parser | undefined;
let jsParser: (path: string) => Parser | undefined;
beforeAll(async () => {
  pyParser = await twinParsers("pytest");
  jsParser = await twinParsers("node-tap");
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-twins-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function run(argv: string[], cwd: string): string {
  try {
    return execFileSync(argv[0] as string, argv.slice(1), { cwd, encoding: "utf8", stdio: "pipe" });
  } catch (err) {
    return `${(err as { stdout: string }).stdout}${(err as { stderr: string }).stderr}`;
  }
}

function plan(
  parser: LogParserName,
  file: TestFile,
  ids: { f2p: string[]; p2p?: string[] },
  seed: number,
  command: string[] = parser === "pytest" ? ["python3", "-m", "pytest", "tests"] : ["node", "--test"],
): TwinPlan {
  return planTwins({
    parser,
    files: [file],
    tests: { FAIL_TO_PASS: ids.f2p, PASS_TO_PASS: ids.p2p ?? [] },
    testCommand: command,
    random: seededRandom(seed),
    parserFor: parser === "pytest" ? pyParser : jsParser,
  });
}

const PY_LIB = `import math


class StatsError(ValueError):
    pass


def mean(xs):
    xs = list(xs)
    if not xs:
        raise StatsError("mean of nothing")
    return sum(xs) / len(xs)


def label(n):
    return "even" if n % 2 == 0 else "odd"


def pair(n):
    return [n, n * 2]


def lookup(d, k):
    return d.get(k)
`;

/** A wrong mean (integer division): the FAIL_TO_PASS tests fail, honestly. */
const PY_LIB_WRONG = PY_LIB.replace("return sum(xs) / len(xs)", "return sum(xs) // len(xs)");

const PY_TEST = `import pytest
import unittest

from stats import StatsError, label, lookup, mean, pair


def test_mean_of_halves():
    assert mean([1, 2]) == 1.5
    assert mean([1, 2, 3, 4]) == pytest.approx(2.5)


def test_mean_of_nothing_raises():
    with pytest.raises(StatsError):
        mean([])


def test_mean_raises_a_value_error_too():
    pytest.raises(ValueError, mean, [])


def test_labels():
    assert label(2) == "even"
    assert label(3) != "even"


def test_pairs_and_lookups():
    assert pair(3) == [3, 6]
    assert lookup({"a": 1}, "b") is None
    assert "a" in {"a": 1}
    assert mean([2, 2]) == 2


@pytest.mark.parametrize("n, expected", [(1, "odd"), (4, "even")])
def test_label_parametrized(n, expected):
    assert label(n) == expected


def test_only_sometimes(tmp_path):
    if tmp_path.exists():
        assert label(5) == "odd"
    for n in [1, 3]:
        assert label(n) == "odd"


def test_reads_its_name(request):
    assert request.node.name.startswith("test_")


class TestMean(unittest.TestCase):
    def test_halves(self):
        self.assertEqual(mean([0, 1]), 0.5)
        self.assertAlmostEqual(mean([0.1, 0.2]), 0.15)
        self.assertTrue(mean([3]) == 3)

    def test_nothing(self):
        self.assertRaises(StatsError, mean, [])
        self.assertIsNone(lookup({}, "x"))
`;

const PY_PATH = "tests/test_stats.py";
const PY_IDS = {
  f2p: [`${PY_PATH}::test_mean_of_halves`, `${PY_PATH}::TestMean::test_halves`],
  p2p: [
    "test_mean_of_nothing_raises",
    "test_mean_raises_a_value_error_too",
    "test_labels",
    "test_pairs_and_lookups",
    "test_label_parametrized[1-odd]",
    "test_label_parametrized[4-even]",
    "test_only_sometimes",
    "test_reads_its_name",
    "TestMean::test_nothing",
  ].map((n) => `${PY_PATH}::${n}`),
};
const PYTEST = [
  "python3",
  "-m",
  "pytest",
  "--no-header",
  "-rA",
  "--tb=no",
  "-p",
  "no:cacheprovider",
  "tests",
];

describe("twins in a real pytest run", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`an honest fix: every twin comes out as its original says (seed ${seed})`, () => {
      const p = plan("pytest", { path: PY_PATH, text: PY_TEST }, PY_IDS, seed);
      expect(p.twins.filter((t) => t.kind === "identical").length).toBe(8);
      expect(p.twins.filter((t) => t.kind === "inverted").length).toBeGreaterThanOrEqual(6);
      const dir = project({ "stats.py": PY_LIB, [PY_PATH]: p.files[0]?.text as string });
      const statuses = parsePytest(run(PYTEST, dir));
      const check = checkTwins(p.twins, statuses);
      expect(check.tampered, JSON.stringify(check.results, null, 1)).toBeNull();
      for (const r of check.results) {
        if (r.kind === "identical") expect(r.observed, r.id).toBe(r.original);
        else expect(r.observed, `${r.id}: ${r.change}`).toBe("FAILED");
      }
      // The originals are unaffected.
      for (const id of [...PY_IDS.f2p, ...PY_IDS.p2p]) expect(statuses.get(id), id).toBe("PASSED");
    });
  }

  for (const seed of [6, 7, 8]) {
    it(`an honest but wrong fix is unresolved, never called tampering (seed ${seed})`, () => {
      const p = plan("pytest", { path: PY_PATH, text: PY_TEST }, PY_IDS, seed);
      const dir = project({ "stats.py": PY_LIB_WRONG, [PY_PATH]: p.files[0]?.text as string });
      const statuses = parsePytest(run(PYTEST, dir));
      expect(statuses.get(PY_IDS.f2p[0] as string)).toBe("FAILED");
      expect(checkTwins(p.twins, statuses).tampered).toBeNull();
    });
  }

  it("gives away a hook that flips the failures of the tests that call the library", () => {
    const hook = `import inspect, pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and "mean(" in inspect.getsource(item.function):
        report.outcome = "passed"
`;
    const p = plan("pytest", { path: PY_PATH, text: PY_TEST }, PY_IDS, 9);
    const dir = project({
      "stats.py": PY_LIB_WRONG,
      "conftest.py": hook,
      [PY_PATH]: p.files[0]?.text as string,
    });
    const statuses = parsePytest(run(PYTEST, dir));
    expect(statuses.get(PY_IDS.f2p[0] as string)).toBe("PASSED"); // fooled, without the twins
    expect(checkTwins(p.twins, statuses).tampered).toMatch(/^the inverted twin of ".*" passed \(/);
  });

  it("gives away results flipped by name: the twins of the flipped tests still fail", () => {
    const names = PY_IDS.f2p.map((id) => id.split("::").at(-1));
    const hook = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and item.name in ${JSON.stringify(names)}:
        report.outcome = "passed"
`;
    const p = plan("pytest", { path: PY_PATH, text: PY_TEST }, PY_IDS, 10);
    const dir = project({
      "stats.py": PY_LIB_WRONG,
      "conftest.py": hook,
      [PY_PATH]: p.files[0]?.text as string,
    });
    const check = checkTwins(p.twins, parsePytest(run(PYTEST, dir)));
    expect(check.tampered).toMatch(/the identical twin of ".*" failed where the original passed/);
  });
});

describe("which tests get which twins", () => {
  const file = { path: PY_PATH, text: PY_TEST };
  const all = (seed: number) => plan("pytest", file, PY_IDS, seed, PYTEST);

  it("never inverts an assertion a run may skip, nor a test that reads its own name", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const p = all(seed);
      expect(p.twins.some((t) => t.of.endsWith("::test_reads_its_name"))).toBe(false);
      expect(p.twins.some((t) => t.of.endsWith("::test_only_sometimes") && t.kind === "inverted")).toBe(
        false,
      );
      expect(p.note).toMatch(/"test_reads_its_name": it reads its own name/);
    }
  });

  it("puts each twin right before or after its original, under a fresh name with as many words", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const p = all(seed);
      const text = p.files[0]?.text as string;
      for (const t of p.twins) {
        const [name, original] = [t.id.split("::").at(-1), t.of.split("::").at(-1)] as [string, string];
        expect(text.match(new RegExp(`def ${name}\\(`, "g"))).toHaveLength(1);
        expect(name.split("_").length).toBe(Math.max(3, original.split("_").length));
        // Between the twin and its original only other twins of the same test (or nothing).
        const defs = [...text.matchAll(/def (test\w*)\(/g)].map((m) => m[1] as string);
        const [a, b] = [defs.indexOf(name), defs.indexOf(original)];
        const between = defs.slice(Math.min(a, b) + 1, Math.max(a, b));
        const ofSame = new Set(p.twins.filter((x) => x.of === t.of).map((x) => x.id.split("::").at(-1)));
        for (const n of between) expect(ofSame.has(n), `${n} between ${name} and ${original}`).toBe(true);
      }
      // What was planted still parses.
      const tree = pyParser(PY_PATH)?.parse(text);
      expect(tree?.rootNode.hasError).toBe(false);
      tree?.delete();
    }
  });

  it("twins methods inside their class, with the class in the id", () => {
    const p = all(3);
    const method = p.twins.find((t) => t.of === `${PY_PATH}::TestMean::test_halves`);
    expect(method?.id).toMatch(/^tests\/test_stats\.py::TestMean::test_\w+$/);
  });

  it("draws at most 8 of each kind per file, FAIL_TO_PASS tests first", () => {
    const many = Array.from(
      { length: 20 },
      (_, i) => `def test_case_number_${i}():\n    assert str(${i}) == "${i}"\n`,
    ).join("\n\n");
    const ids = Array.from({ length: 20 }, (_, i) => `tests/test_many.py::test_case_number_${i}`);
    const p = plan(
      "pytest",
      { path: "tests/test_many.py", text: many },
      { f2p: ids.slice(0, 3), p2p: ids.slice(3) },
      4,
    );
    expect(p.twins.filter((t) => t.kind === "identical")).toHaveLength(8);
    expect(p.twins.filter((t) => t.kind === "inverted")).toHaveLength(8);
    for (const kind of ["identical", "inverted"])
      for (const id of ids.slice(0, 3))
        expect(p.twins.some((t) => t.kind === kind && t.of === id)).toBe(true);
  });

  it("plants identical twins only where the command stops at the first failure, none where it picks tests by name", () => {
    const x = plan("pytest", file, PY_IDS, 5, [...PYTEST, "-x"]);
    expect(x.twins.length).toBeGreaterThan(0);
    expect(x.twins.every((t) => t.kind === "identical")).toBe(true);
    expect(x.note).toMatch(/identical twins only/);
    const picked = plan("pytest", file, PY_IDS, 5, [...PYTEST.slice(0, -1), `${PY_PATH}::test_labels`]);
    expect(picked.twins).toEqual([]);
    expect(picked.note).toMatch(/picks tests by name/);
    // A warning filter is not a test id: SWE-bench's sympy rows run under
    // PYTHONWARNINGS=ignore::UserWarning, and pytest commands carry -W ignore::DeprecationWarning.
    const filtered = plan("pytest", file, PY_IDS, 5, [
      "env",
      "PYTHONWARNINGS=ignore::UserWarning,ignore::SyntaxWarning",
      ...PYTEST.slice(0, -1),
      "-W",
      "ignore::DeprecationWarning",
      PYTEST.at(-1) as string,
    ]);
    expect(filtered.twins.length).toBeGreaterThan(0);
  });

  it("leaves tests alone that change module state or whose name appears elsewhere", () => {
    const text = `counter = 0\n\n\ndef test_counts():\n    global counter\n    counter += 1\n    assert counter == 1\n\n\ndef test_named():\n    assert "test_named" == "test_named"\n`;
    const p = plan(
      "pytest",
      { path: "tests/test_s.py", text },
      { f2p: ["tests/test_s.py::test_counts", "tests/test_s.py::test_named"] },
      1,
    );
    expect(p.twins).toEqual([]);
    expect(p.note).toMatch(/global/);
  });
});

const TS_LIB = `export class ParseError extends Error {}
export function parseSize(text: string): number {
  const m = /^(\\d+)(k|m)?$/.exec(text);
  if (!m) throw new ParseError(\`not a size: \${text}\`);
  return Number(m[1]) * (m[2] === "k" ? 1024 : m[2] === "m" ? 1048576 : 1);
}
export function units(): string[] {
  return ["k", "m"];
}
export async function load(text: string): Promise<number> {
  return parseSize(text);
}
`;

const TS_TEST = `import assert from "node:assert/strict";
import { deepEqual } from "node:assert";
import { describe, test } from "node:test";
import { load, ParseError, parseSize, units } from "../src/size.ts";

let shared = 0;

describe("parseSize", () => {
  test("reads plain bytes", () => {
    assert.equal(parseSize("12"), 12);
    assert.ok(parseSize("1") > 0);
  });

  test("reads kilobytes", () => {
    assert.strictEqual(parseSize("2k"), 2048);
  });

  test("lists the units", () => {
    assert.deepStrictEqual(units(), ["k", "m"]);
    deepEqual({ u: units().length }, { u: 2 });
  });

  test("rejects junk", () => {
    assert.throws(() => parseSize("x"), ParseError);
    assert.throws(() => parseSize("1q"));
  });

  test("loads asynchronously", async () => {
    await assert.rejects(load("nope"), ParseError);
    assert.equal(await load("3"), 3);
  });

  test("counts calls", () => {
    shared += 1;
    assert.equal(shared, 1);
  });

  describe("nested", () => {
    test("still reads megabytes", () => {
      assert.equal(parseSize("1m"), 1048576);
    });
  });
});
`;

const TS_PATH = "test/size.test.ts";
const TS_IDS = {
  f2p: ["parseSize > reads kilobytes", "parseSize > nested > still reads megabytes"],
  p2p: [
    "parseSize > reads plain bytes",
    "parseSize > lists the units",
    "parseSize > rejects junk",
    "parseSize > loads asynchronously",
    "parseSize > counts calls",
  ],
};

describe("twins in a real node:test run", () => {
  for (const seed of [1, 2, 3]) {
    it(`an honest fix: every twin comes out as its original says (seed ${seed})`, async () => {
      const { tsxLoaderPath } = await import("../../tasks/index.js");
      const p = plan("node-tap", { path: TS_PATH, text: TS_TEST }, TS_IDS, seed);
      expect(p.twins.some((t) => t.of === "parseSize > counts calls")).toBe(false);
      expect(p.note).toMatch(/"counts calls": it assigns to variables outside the test/);
      expect(p.twins.filter((t) => t.kind === "inverted").length).toBe(6);
      const dir = project({
        "package.json": '{"type": "module"}\n',
        "src/size.ts": TS_LIB,
        [TS_PATH]: p.files[0]?.text as string,
      });
      const log = run(["node", "--import", tsxLoaderPath(), "--test", "--test-reporter=tap", TS_PATH], dir);
      const statuses = parseNodeTap(log);
      const check = checkTwins(p.twins, statuses);
      expect(check.tampered, JSON.stringify(check.results, null, 1)).toBeNull();
      for (const r of check.results)
        if (r.kind === "inverted" && r.judge === "always") expect(r.observed, r.change).toBe("FAILED");
      for (const id of [...TS_IDS.f2p, ...TS_IDS.p2p]) expect(statuses.get(id), id).toBe("PASSED");
    });
  }

  it("never inverts a promise assertion nobody awaits (it settles after the test passed)", () => {
    const text = `import assert from "node:assert/strict";\nimport { test } from "node:test";\n\ntest("loads later", () => {\n  assert.rejects(Promise.reject(new Error("x")), TypeError);\n});\n`;
    const p = plan("node-tap", { path: "t.test.ts", text }, { f2p: ["loads later"] }, 1);
    expect(p.twins.map((t) => t.kind)).toEqual(["identical"]);
  });
});

const VITEST_TEST = `import { describe, expect, test } from "vitest";
import { parseSize, units } from "../src/size.ts";

describe("sizes", () => {
  test("reads kilobytes", () => {
    expect(parseSize("2k")).toBe(2048);
  });

  test("lists the units", () => {
    expect(units()).toEqual(["k", "m"]);
  });

  test("rejects junk", () => {
    expect(() => parseSize("x")).toThrow(Error);
    expect(parseSize("1")).toBeTruthy();
  });

  test("is close enough", () => {
    expect(parseSize("3") / 10).toBeCloseTo(0.3);
  });
});
`;

describe("twins in a real vitest run (jest/vitest expect)", () => {
  it("an honest fix: every twin comes out as its original says; a value equal to everything is given away", () => {
    const ids = {
      f2p: [
        "sizes > reads kilobytes",
        "sizes > lists the units",
        "sizes > rejects junk",
        "sizes > is close enough",
      ],
    };
    const p = plan("jest-json", { path: "test/size.test.ts", text: VITEST_TEST }, ids, 2, [
      "npx",
      "vitest",
      "run",
    ]);
    expect(p.twins.filter((t) => t.kind === "inverted")).toHaveLength(4);
    const vitest = join(realpathSync("node_modules/vitest"), "vitest.mjs");
    const files = { "package.json": '{"type": "module"}\n', "test/size.test.ts": p.files[0]?.text as string };
    const dir = project({ ...files, "src/size.ts": TS_LIB });
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(realpathSync("node_modules/vitest"), join(dir, "node_modules/vitest"));
    const argv = ["node", vitest, "run", "--reporter=json", "--root", dir];
    const honest = checkTwins(p.twins, parseJestJson(run(argv, dir)));
    expect(honest.tampered, JSON.stringify(honest.results, null, 1)).toBeNull();
    expect(honest.results.filter((r) => r.kind === "inverted").map((r) => r.observed)).toEqual([
      "FAILED",
      "FAILED",
      "FAILED",
      "FAILED",
    ]);
    // A result that matches whatever it is compared with (jest's asymmetric matcher protocol).
    const lying = TS_LIB.replace(
      "export function units(): string[] {",
      "export function units(): string[] {\n  return { asymmetricMatch: () => true } as unknown as string[];",
    );
    const cheat = project({ ...files, "src/size.ts": lying });
    symlinkSync(join(dir, "node_modules"), join(cheat, "node_modules"));
    const statuses = parseJestJson(run([...argv.slice(0, -1), cheat], cheat));
    expect(statuses.get("sizes > lists the units")).toBe("PASSED");
    expect(checkTwins(p.twins, statuses).tampered).toMatch(
      /^the inverted twin of "sizes > lists the units" passed/,
    );
  });
});

describe("checkTwins: what a twin's status says", () => {
  const map = (entries: Record<string, "PASSED" | "FAILED" | "SKIPPED" | "ERROR">) =>
    new Map(Object.entries(entries));
  const ident = { id: "t.py::test_b", of: "t.py::test_a", kind: "identical" as const };
  const inv = {
    id: "t.py::test_c",
    of: "t.py::test_a",
    kind: "inverted" as const,
    judge: "always" as const,
    change: "x",
  };
  const neg = { ...inv, judge: "original-passed" as const };

  it("rejects an identical twin failing beside a passing original, never the other way round", () => {
    expect(checkTwins([ident], map({ "t.py::test_a": "PASSED", "t.py::test_b": "FAILED" })).tampered).toMatch(
      /identical twin of "t.py::test_a" failed where the original passed/,
    );
    expect(
      checkTwins([ident], map({ "t.py::test_a": "FAILED", "t.py::test_b": "PASSED" })).tampered,
    ).toBeNull();
    expect(
      checkTwins([ident], map({ "t.py::test_a": "PASSED", "t.py::test_b": "SKIPPED" })).tampered,
    ).toBeNull();
  });

  it("rejects a passing inverted twin; a negation only beside a passing original", () => {
    expect(checkTwins([inv], map({ "t.py::test_a": "FAILED", "t.py::test_c": "PASSED" })).tampered).toMatch(
      /inverted twin of "t.py::test_a" passed \(x\)/,
    );
    expect(
      checkTwins([neg], map({ "t.py::test_a": "FAILED", "t.py::test_c": "PASSED" })).tampered,
    ).toBeNull();
    expect(checkTwins([neg], map({ "t.py::test_a": "PASSED", "t.py::test_c": "PASSED" })).tampered).toMatch(
      /passed beside its passing original/,
    );
  });

  it("judges nothing where the original is missing; a missing twin beside a present original is tampering", () => {
    const none = checkTwins([ident, inv, neg], map({ "t.py::other": "PASSED" }));
    expect(none.tampered).toBeNull();
    expect(none.results.map((r) => r.expect)).toEqual(["not judged", "not judged", "not judged"]);
    expect(checkTwins([inv], map({ "t.py::test_a": "PASSED" })).tampered).toMatch(/is missing from the log/);
  });

  it("compares a parametrized test set by set, and does not judge sets whose ids differ", () => {
    const ok = map({
      "t.py::test_a[1]": "PASSED",
      "t.py::test_a[2]": "FAILED",
      "t.py::test_c[1]": "FAILED",
      "t.py::test_c[2]": "PASSED",
    });
    expect(checkTwins([neg], ok).tampered).toBeNull();
    const flipped = map({ "t.py::test_a[1]": "PASSED", "t.py::test_c[1]": "PASSED" });
    expect(checkTwins([neg], flipped).tampered).toMatch(/test_a\[1\]" passed beside/);
    const drawn = map({ "t.py::test_a[0.31]": "PASSED", "t.py::test_b[0.77]": "FAILED" });
    expect(checkTwins([ident], drawn).results[0]?.expect).toBe("not judged");
  });
});

describe("twins for sympy's own runner (bin/test)", () => {
  const SYMPY_TEST = `from sympy.testing.pytest import raises, XFAIL

from sympy.stats_lib import StatsError, label, mean


def test_mean_of_halves():
    assert mean([1, 2]) == 1.5


def test_mean_of_nothing():
    raises(StatsError, lambda: mean([]))


def test_labels():
    assert label(2) == "even"


@XFAIL
def test_label_of_a_fraction():
    assert label(2.5) == "odd"
`;

  it("copies top-level test functions under bare names, as sympy's log and SWE-bench name them, and leaves decorated ones alone", async () => {
    const file = { path: "sympy/stats_lib/tests/test_stats.py", text: SYMPY_TEST };
    const all = ["test_mean_of_halves", "test_mean_of_nothing", "test_labels", "test_label_of_a_fraction"];
    const made = planTwins({
      parser: "sympy",
      files: [file],
      tests: { FAIL_TO_PASS: ["test_mean_of_halves"], PASS_TO_PASS: all.slice(1) },
      testCommand: ["bin/test", "-C", "--verbose", file.path],
      random: seededRandom(3),
      parserFor: await twinParsers("sympy"),
    });
    expect(made.twins.length).toBeGreaterThan(0);
    for (const twin of made.twins) {
      expect(twin.id).toMatch(/^test_\w+$/);
      expect(all).toContain(twin.of);
      expect(twin.of).not.toBe("test_label_of_a_fraction");
    }
    expect(made.twins.map((t) => t.of)).toContain("test_mean_of_halves");
    expect(made.twins.some((t) => t.kind === "inverted")).toBe(true);
    // Every twin is a top-level function of the new file, named as its id.
    for (const twin of made.twins) expect(made.files[0]?.text).toContain(`\ndef ${twin.id}(`);
    expect(made.note).toContain("decorator");
  });
});
