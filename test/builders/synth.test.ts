import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { synth } from "../../src/builders/synth.js";
import { checkMutants, commitFiles, initRepo } from "../../src/builders/testing.js";

const scratch = mkdtempSync(join(tmpdir(), "acilab-synth-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PY_LIB = `def clamp(x, lo=0, hi=10):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x

def window(items, size):
    return [items[i:i + size] for i in range(0, len(items) - size + 1)]

def ratio(a, b):
    if b == 0:
        raise ValueError("b is zero") from None
    return a / b
`;
const PY_TESTS = `from lib import clamp, window, ratio

def test_clamp_low():
    assert clamp(-5) == 0

def test_clamp_high():
    assert clamp(50) == 10

def test_clamp_inside():
    assert clamp(4, 0, 10) == 4

def test_window_pairs():
    assert window([1, 2, 3], 2) == [[1, 2], [2, 3]]

def test_ratio():
    assert ratio(6, 3) == 2
`;

describe("tasks synth (Python)", () => {
  it("plants bugs in a Python repository that tests catch and the patch undoes", async () => {
    const repo = join(scratch, "pylib");
    await initRepo(repo);
    await commitFiles(repo, { "lib.py": PY_LIB, "tests/test_lib.py": PY_TESTS, "conftest.py": "" }, "lib");
    const out = join(scratch, "py", "synth.jsonl");
    const report = await synth({ repo, out, max: 2, seed: 7 });
    expect(report.setup.logParser).toBe("pytest");
    await checkMutants(report, join(scratch, "py"));
  });
});
