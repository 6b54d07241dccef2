import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadTask, type Task, taskInstance } from "../tasks/index.js";
import { makePythonTask } from "../tasks/testing.js";
import { gradeInstance, gradeTask } from "./grade.js";

const dirs: string[] = [];
function task(overrides?: Parameters<typeof makePythonTask>[0]): Task {
  const dir = makePythonTask(overrides);
  dirs.push(dir);
  return loadTask(dir);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const diff = (path: string, hunk: string[], header = "") =>
  [
    `diff --git a/${path} b/${path}`,
    ...(header ? [header] : []),
    `--- a/${path}`,
    `+++ b/${path}`,
    ...hunk,
    "",
  ].join("\n");

describe("gradeInstance", () => {
  it("resolves with the gold patch, reports SWE-bench's buckets and writes an eval script", async () => {
    const t = task();
    const { report, testOutput, evalScript } = await gradeTask(t, t.goldPatch);
    expect(report).toMatchObject({
      outcome: "graded",
      patch_successfully_applied: true,
      apply_strategy: "git apply",
      rejected: null,
      resolved: true,
      touches_tests: false,
      rules: "hardened",
      // The canaries planted to fail did: pytest's exit status for a run with failed tests.
      test_exit_code: 1,
    });
    expect(report.canaries.length).toBeGreaterThanOrEqual(2);
    for (const c of report.canaries) expect(c.observed).toBe(c.expect);
    expect(report.canaries.map((c) => c.id).every((id) => id.startsWith("tests/test_hidden.py::test_"))).toBe(
      true,
    );
    expect(report.tests_status.FAIL_TO_PASS).toEqual({
      success: ["tests/test_hidden.py::test_add"],
      failure: [],
    });
    expect(report.tests_status.PASS_TO_PASS).toEqual({
      success: ["tests/test_calc.py::test_mul"],
      failure: [],
    });
    expect(testOutput).toMatch(/PASSED tests\/test_hidden.py::test_add/);
    // SWE-bench's markers, written by the harness around the runner's output.
    expect(testOutput.startsWith(">>>>> Start Test Output\n")).toBe(true);
    expect(testOutput).toMatch(/\n>>>>> End Test Output\n>>>>> Test Exit Code: 1\n$/);
    // eval.sh holds the steps as they ran in the sandbox, the test patch among them.
    expect(evalScript).toMatch(/apply \(git apply\)/);
    expect(evalScript).toMatch(/git.* apply --whitespace=nowarn \/tmp\/test.patch/);
    expect(evalScript).toContain("tests/test_hidden.py");
  });

  it("counts an empty or null patch as empty_patch without running tests", async () => {
    const t = task();
    for (const patch of ["", null]) {
      const { report, testOutput } = await gradeTask(t, patch);
      expect(report).toMatchObject({
        outcome: "empty_patch",
        resolved: false,
        patch_is_None: patch === null,
      });
      expect(testOutput).toBe("");
    }
  });

  it("reports a patch that applies by no strategy, naming the file", async () => {
    const t = task();
    const { report } = await gradeTask(t, t.goldPatch.replace("return a - b", "return a / b"));
    expect(report).toMatchObject({
      outcome: "patch_failed",
      patch_successfully_applied: false,
      resolved: false,
    });
    expect(report.detail).toMatch(/does not apply.*calc\.py/);
  });

  it("applies a patch with drifted context through a fallback strategy", async () => {
    const t = task();
    const { report } = await gradeTask(t, t.goldPatch.replace(" def mul(a, b):", " def mul(x, y):"));
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.apply_strategy).not.toBe("git apply");
    expect(report.resolved).toBe(true);
  });

  it("rejects forged PASSED lines from a patched conftest.py, and flags it as touching tests", async () => {
    const t = task();
    const forged = diff("tests/conftest.py", [
      "@@ -1,2 +1,8 @@",
      " import sys, os",
      " sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))",
      "+def pytest_sessionfinish(session, exitstatus):",
      "+    print()",
      "+    print('PASSED tests/test_hidden.py::test_add')",
      "+    print('PASSED tests/test_calc.py::test_mul')",
      "+    print('============================== 2 passed in 0.01s ===============================')",
      "+    os._exit(1)",
    ]);
    const { report } = await gradeTask(t, forged);
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.touches_tests).toBe(true);
    expect(report.resolved).toBe(false);
    // The forged lines name no planted canary: the log does not describe the tests that ran.
    expect(report.rejected ?? "").toMatch(/tampering: .*planted by the grader are missing/);
  });

  it("fails a FAIL_TO_PASS test that is missing from the log", async () => {
    const t = task();
    t.failToPass.push("tests/test_hidden.py::test_never_written");
    const { report } = await gradeTask(t, t.goldPatch);
    expect(report.tests_status.FAIL_TO_PASS.failure).toEqual(["tests/test_hidden.py::test_never_written"]);
    expect(report.resolved).toBe(false);
  });

  it("rejects a log with no sign that the suite ran", async () => {
    const t = task();
    const broken = `${t.goldPatch}${diff("tests/conftest.py", [
      "@@ -1,2 +1,3 @@",
      " import sys, os",
      " sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))",
      "+raise SystemExit(0)",
    ])}`;
    const { report } = await gradeTask(t, broken);
    expect(report.resolved).toBe(false);
    expect(report.rejected ?? "").toMatch(/did not run/);
  });

  it("restores the graded test file a candidate rewrote before the hidden tests run", async () => {
    // The hidden test file also exists at base: a candidate that edits it to pass trivially is undone.
    const t = task({
      files: {
        "repo/tests/test_hidden.py": "def test_placeholder():\n    pass\n",
        "hidden/tests/test_hidden.py":
          "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
      },
    });
    const cheat = diff("tests/test_hidden.py", [
      "@@ -1,2 +1,2 @@",
      "-def test_placeholder():",
      "+def test_add():",
      "     pass",
    ]);
    const { report } = await gradeTask(t, cheat);
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.tests_status.FAIL_TO_PASS.failure).toEqual(["tests/test_hidden.py::test_add"]);
    expect(report.resolved).toBe(false);
  });

  it("refuses a patch that writes inside .git, and one with a binary change but no content", async () => {
    const t = task();
    const intoGit = diff(
      ".git/config",
      ["@@ -0,0 +1,2 @@", "+[core]", "+\tfsmonitor = touch /tmp/pwned"],
      "new file mode 100644",
    );
    const a = await gradeTask(t, intoGit.replace("--- a/.git/config", "--- /dev/null"));
    expect(a.report).toMatchObject({ outcome: "patch_failed" });
    expect(a.report.detail).toMatch(/inside \.git/);
    const binary =
      "diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\nBinary files a/logo.png and b/logo.png differ\n";
    const b = await gradeTask(t, binary);
    expect(b.report.outcome).toBe("patch_failed");
    expect(b.report.detail).toMatch(/git diff --binary/);
  });

  it("reports a hanging test command as a timeout, not as unresolved", async () => {
    const t = task({
      files: {
        "repo/tests/conftest.py":
          "import sys, os, time\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\ntime.sleep(60)\n",
      },
    });
    const instance = await taskInstance(t);
    const { report } = await gradeInstance(instance, { model_patch: t.goldPatch }, { timeoutMs: 1500 });
    expect(report.outcome).toBe("timeout");
    expect(report.resolved).toBe(false);
  });

  it("reports a base commit the repository does not have as an infrastructure error", async () => {
    const instance = await taskInstance(task());
    const { report } = await gradeInstance(
      { ...instance, base_commit: "0".repeat(40) },
      { model_patch: instance.patch },
    );
    expect(report.outcome).toBe("infrastructure_error");
    expect(report.detail).toMatch(/not in .*base_commit/);
  });

  it("carries the impossible flag into the report", async () => {
    const instance = await taskInstance(task());
    const { report } = await gradeInstance(
      { ...instance, impossible: true },
      { model_patch: instance.patch },
    );
    expect(report.impossible).toBe(true);
  });
});
