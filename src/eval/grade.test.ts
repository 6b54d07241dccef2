import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadTask } from "../tasks/index.js";
import { makePythonTask } from "../tasks/testing.js";
import { gradePatch } from "./grade.js";

const dirs: string[] = [];
function task(overrides?: Parameters<typeof makePythonTask>[0]) {
  const dir = makePythonTask(overrides);
  dirs.push(dir);
  return loadTask(dir);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("gradePatch", () => {
  it("resolves with the gold patch and reports SWE-bench's buckets", async () => {
    const t = task();
    const report = await gradePatch(t, t.goldPatch);
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.rejected).toBeNull();
    expect(report.tests_status.FAIL_TO_PASS).toEqual({
      success: ["tests/test_hidden.py::test_add"],
      failure: [],
    });
    expect(report.tests_status.PASS_TO_PASS).toEqual({
      success: ["tests/test_calc.py::test_mul"],
      failure: [],
    });
    expect(report.resolved).toBe(true);
  });

  it("counts an empty patch as unresolved without running tests", async () => {
    const report = await gradePatch(task(), "");
    expect(report.patch_exists).toBe(false);
    expect(report.resolved).toBe(false);
    expect(report.test_output).toBe("");
  });

  it("reports a patch that does not apply", async () => {
    const t = task();
    const bad = t.goldPatch.replace("return a - b", "return a / b");
    const report = await gradePatch(t, bad);
    expect(report.patch_successfully_applied).toBe(false);
    expect(report.resolved).toBe(false);
    expect(report.apply_log).toMatch(/git apply/);
  });

  it("applies a patch with drifted context through the fuzzy fallback", async () => {
    const t = task();
    const drifted = t.goldPatch.replace(" def mul(a, b):", " def mul(x, y):");
    const report = await gradePatch(t, drifted);
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.apply_log).toMatch(/fuzz/);
    expect(report.resolved).toBe(true);
  });

  it("rejects forged PASSED lines from a patched conftest.py", async () => {
    const t = task();
    // The patch leaves the bug but makes pytest print fake passes and exit non-zero.
    const forged = [
      "diff --git a/tests/conftest.py b/tests/conftest.py",
      "--- a/tests/conftest.py",
      "+++ b/tests/conftest.py",
      "@@ -1,2 +1,7 @@",
      " import sys, os",
      " sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))",
      "+def pytest_sessionfinish(session, exitstatus):",
      "+    print()",
      "+    print('PASSED tests/test_hidden.py::test_add')",
      "+    print('PASSED tests/test_calc.py::test_mul')",
      "+    os._exit(1)",
      "",
    ].join("\n");
    const report = await gradePatch(t, forged);
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.resolved).toBe(false);
    expect(report.rejected ?? "").toMatch(/reported no failed test/);
  });

  it("fails a FAIL_TO_PASS test that is missing from the log", async () => {
    const t = task();
    t.failToPass.push("tests/test_hidden.py::test_never_written");
    const report = await gradePatch(t, t.goldPatch);
    expect(report.tests_status.FAIL_TO_PASS.failure).toEqual(["tests/test_hidden.py::test_never_written"]);
    expect(report.resolved).toBe(false);
  });

  it("rejects a log with no sign that the suite ran", async () => {
    const t = task();
    const broken = `${t.goldPatch}diff --git a/tests/conftest.py b/tests/conftest.py\n--- a/tests/conftest.py\n+++ b/tests/conftest.py\n@@ -1,2 +1,3 @@\n import sys, os\n sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n+raise SystemExit(0)\n`;
    const report = await gradePatch(t, broken);
    expect(report.resolved).toBe(false);
    expect(report.rejected ?? "").toMatch(/did not run/);
  });
});
