import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Instance } from "../swebench/index.js";
import { git } from "../workspace/index.js";
import { leak } from "./issue.js";
import { type BuildReport, mirror } from "./mirror.js";
import { commitFiles, initRepo } from "./testing.js";
import { runInstance } from "./verify.js";

const CALC = `def clamp(x, lo, hi):
    return max(lo, x)


def mean(values):
    return sum(values) / len(values)
`;
const CALC_FIXED = CALC.replace("    return max(lo, x)\n", "    low = max(lo, x)\n    return min(low, hi)\n");
const CALC_MEAN_FIXED = CALC_FIXED.replace(
  "    return sum(values) / len(values)\n",
  `    """The arithmetic mean; 0.0 for no values."""
    values = list(values)
    if not values:
        return 0.0
    total = 0.0
    for v in values:
        total += v
    return total / len(values)
`,
);
const TESTS = `from calc import clamp, mean


def test_clamp_inside():
    assert clamp(5, 0, 10) == 5


def test_clamp_below():
    assert clamp(-3, 0, 10) == 0


def test_mean():
    assert mean([1, 2, 3]) == 2
`;
const TESTS_FIXED = `${TESTS}

class TestClampUpper:
    def test_clamp_above(self):
        assert clamp(15, 0, 10) == 10


def test_clamp_huge_value():
    result = clamp(10**9, 0, 10)
    assert result == 10
`;

let scratch: string;
let report: BuildReport;
let small: string;
let big: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-mirror-test-"));
  const repo = join(scratch, "calc");
  await initRepo(repo);
  await commitFiles(
    repo,
    { "calc.py": CALC, "tests/test_calc.py": TESTS, "conftest.py": "", "AGENTS.md": "run pytest\n" },
    "initial",
  );
  small = await commitFiles(
    repo,
    { "calc.py": CALC_FIXED, "tests/test_calc.py": TESTS_FIXED },
    "clamp: respect the upper bound",
  );
  await commitFiles(repo, { "README.md": "# calc\n", "CHANGELOG.md": "- clamp\n" }, "docs");
  big = await commitFiles(
    repo,
    {
      "calc.py": CALC_MEAN_FIXED,
      "tests/test_calc.py": `${TESTS_FIXED}\n\ndef test_mean_of_nothing():\n    assert mean([]) == 0.0\n`,
    },
    "mean of no values",
  );
  report = await mirror({ repo, out: join(scratch, "out", "tasks.jsonl"), maxSrcLines: 5 });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("tasks mirror", () => {
  it("keeps the small fix and skips the larger one with a reason", () => {
    expect(report.scanned).toBe(3);
    expect(report.instances).toHaveLength(1);
    const kept = report.candidates.find((c) => c.kept);
    expect(kept?.sha).toBe(small);
    const skipped = report.candidates.find((c) => c.sha === big);
    expect(skipped?.kept).toBe(false);
    expect(skipped?.reason).toMatch(/changes 9 source lines \(more than --max-src-lines 5\)/);
  });

  it("splits the fix commit's tests into FAIL_TO_PASS and PASS_TO_PASS", () => {
    const instance = report.instances[0] as Instance;
    expect(instance.FAIL_TO_PASS.sort()).toEqual([
      "tests/test_calc.py::TestClampUpper::test_clamp_above",
      "tests/test_calc.py::test_clamp_huge_value",
    ]);
    expect(instance.PASS_TO_PASS.sort()).toEqual([
      "tests/test_calc.py::test_clamp_below",
      "tests/test_calc.py::test_clamp_inside",
      "tests/test_calc.py::test_mean",
      // HEAD's test file also holds the later fix's test; it passes with this fix undone.
      "tests/test_calc.py::test_mean_of_nothing",
    ]);
    expect(instance.patch).toContain("+    return min(low, hi)");
    expect(instance.patch).not.toContain("tests/");
    expect(instance.test_patch).toContain("+def test_clamp_huge_value():");
  });

  it("writes JSONL whose repo_path is relative to the file's folder", () => {
    const lines = readFileSync(join(scratch, "out", "tasks.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0] as string) as Instance;
    expect(parsed.repo_path).toBe("tasks.bundle");
    expect(parsed.log_parser).toBe("pytest");
    expect(parsed.test_command.slice(0, 3)).toEqual(["python3", "-m", "pytest"]);
  });

  it("hides the FAIL_TO_PASS tests and AGENTS.md from the base, and the fix from its history", async () => {
    const instance = report.instances[0] as Instance;
    const base = join(scratch, "base");
    await git(scratch, ["init", "-q", base]);
    await git(base, ["fetch", "-q", join(scratch, "out", "tasks.bundle"), "+refs/tags/*:refs/tags/*"]);
    await git(base, ["checkout", "-q", instance.base_commit]);
    const tests = readFileSync(join(base, "tests/test_calc.py"), "utf8");
    expect(tests).not.toContain("test_clamp_above");
    expect(tests).not.toContain("test_clamp_huge_value");
    expect(tests).toContain("def test_clamp_below");
    expect(tests).toMatch(/class TestClampUpper:\n {4}pass/);
    expect(readFileSync(join(base, "calc.py"), "utf8")).toContain("return max(lo, x)");
    expect((await git(base, ["ls-files"])).split("\n")).not.toContain("AGENTS.md");
    expect((await git(base, ["rev-list", "--count", instance.base_commit])).trim()).toBe("1");
  });

  it("gold patch on the base makes FAIL_TO_PASS pass in a sandbox; no patch does not", async () => {
    const instance = report.instances[0] as Instance;
    const dir = join(scratch, "out");
    const gold = await runInstance(instance, dir, instance.patch);
    expect(gold.visibleFiles).not.toContain("AGENTS.md");
    for (const id of [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS])
      expect(gold.statuses.get(id)).toBe("PASSED");
    const none = await runInstance(instance, dir, null);
    for (const id of instance.FAIL_TO_PASS) expect(none.statuses.get(id)).toBe("FAILED");
  });

  it("writes a bug report that names neither the patched file nor the changed code", () => {
    const instance = report.instances[0] as Instance;
    const text = instance.problem_statement;
    expect(leak(text, instance.patch)).toBeUndefined();
    expect(text).not.toContain("calc.py");
    expect(text).toMatch(/clamp/i);
    expect(text).toContain("Expected:");
    expect(text).toMatch(/assert/);
  });
});
