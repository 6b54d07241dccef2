import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../sandbox/index.js";
import {
  checkoutAt,
  loadTask,
  openTaskSandbox,
  type Task,
  type TaskCheckout,
  taskInstance,
} from "../tasks/index.js";
import { makePythonTask } from "../tasks/testing.js";
import { HANG_GUARD_MS } from "../testing/time.js";
import { applyAndPrepare, applyCandidate, runTests, type StepRunner } from "./steps.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A grading sandbox over a fresh checkout of a small Python task, as gradeInstance opens it. */
async function grading(): Promise<{
  task: Task;
  repo: TaskCheckout;
  sandbox: Sandbox;
  runner: StepRunner;
  base: string;
}> {
  const dir = makePythonTask();
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const task = loadTask(dir);
  const instance = await taskInstance(task);
  const repo = await checkoutAt(instance.repo_path, instance.base_commit);
  cleanups.push(() => repo.checkout.dispose());
  const { sandbox } = await openTaskSandbox(instance, repo.checkout.root, undefined, {
    fromSnapshot: true,
    readOnlyParts: [".git"],
  });
  cleanups.push(() => sandbox.close());
  return { task, repo, sandbox, runner: { sandbox, steps: [] }, base: instance.base_commit };
}

describe("grading steps in the sandbox", () => {
  it("GNU patch, tried last, cannot write into .git even when a patch slips past the path check", async () => {
    const { repo, runner } = await grading();
    // Spelled so no check by name sees it: a path through a symlink the patch itself creates.
    const patch = [
      "diff --git a/hooks b/hooks",
      "new file mode 120000",
      "--- /dev/null",
      "+++ b/hooks",
      "@@ -0,0 +1 @@",
      "+.git/hooks",
      "\\ No newline at end of file",
      "diff --git a/hooks/post-checkout b/hooks/post-checkout",
      "new file mode 100755",
      "--- /dev/null",
      "+++ b/hooks/post-checkout",
      "@@ -0,0 +1,2 @@",
      "+#!/bin/sh",
      "+touch /tmp/acilab-pwned-by-hook",
      "",
    ].join("\n");
    // The checkout's .git is read-only for everything in the grading sandbox.
    const touch = await runner.sandbox.exec({
      argv: ["bash", "-c", "touch .git/hooks/x"],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(touch.exitCode).not.toBe(0);
    expect(touch.stderr).toMatch(/Read-only file system/);
    const result = await applyCandidate(runner, patch, () => repo.checkout.reset());
    expect(existsSync(join(repo.checkout.root, ".git/hooks/post-checkout"))).toBe(false);
    expect(existsSync("/tmp/acilab-pwned-by-hook")).toBe(false);
    if (result.applied) expect(result.strategy).not.toBe("patch --fuzz=5");
  });

  it("clears a symlink planted where a graded test folder was, and restores the file from the base", async () => {
    const { repo, runner, base, task } = await grading();
    const root = repo.checkout.root;
    rmSync(join(root, "tests"), { recursive: true, force: true });
    symlinkSync("/etc", join(root, "tests"));
    const instance = await taskInstance(task);
    const { apply, prepared } = await applyAndPrepare(
      runner,
      {
        patch: instance.patch,
        base,
        clear: ["tests/test_calc.py"],
        restore: ["tests/test_calc.py"],
        testPatch: instance.test_patch,
        read: ["tests/test_hidden.py", "tests/missing.py"],
      },
      () => repo.checkout.reset(),
    );
    expect(apply.strategy).toBe("git apply");
    if (!prepared) throw new Error("not prepared");
    // One sandbox start for the patch, the restore and the test patch.
    expect(runner.steps).toHaveLength(1);
    expect(prepared.error).toBe("");
    expect(lstatSync(join(root, "tests")).isDirectory()).toBe(true);
    expect(readFileSync(join(root, "tests/test_calc.py"), "utf8")).toMatch(/def test_mul/);
    // Read back: the hidden test file the test patch added; a missing one is left out.
    expect(prepared.files.map((f) => f.path)).toEqual(["tests/test_hidden.py"]);
    expect(prepared.files[0]?.text).toMatch(/def test_add/);
  });

  it("refuses to plant tests through a symlink, and runs the command as the sandbox's only process", async () => {
    const { repo, runner } = await grading();
    symlinkSync("/etc/hostname", join(repo.checkout.root, "tests/test_link.py"));
    const refused = await runTests(runner, {
      plant: [{ path: "tests/test_link.py", append: "\n" }],
      argv: ["true"],
      timeoutMs: HANG_GUARD_MS,
      outputLimit: 10_000,
    });
    expect(refused.exitCode).toBe(125);
    expect(refused.stderr).toMatch(/cannot plant tests into tests\/test_link.py/);
    // exec: the runner replaces the planting shell; its parent is the sandbox's init, not a shell.
    const ran = await runTests(runner, {
      plant: [],
      argv: ["bash", "-c", 'cat /proc/$PPID/comm; echo "$$"'],
      timeoutMs: HANG_GUARD_MS,
      outputLimit: 10_000,
    });
    expect(ran.stdout.split("\n")[0]).toBe("bwrap");
  });
});

describe("applyAndPrepare", () => {
  it("falls back to the other strategies when git apply refuses, then prepares the tests", async () => {
    const { repo, runner, base, task } = await grading();
    const instance = await taskInstance(task);
    // Context that drifted: git apply refuses it, GNU patch's fuzz takes it.
    const drifted = instance.patch.replace(" def mul(a, b):", " def mul(x, y):");
    const { apply, prepared } = await applyAndPrepare(
      runner,
      {
        patch: drifted,
        base,
        clear: [],
        restore: [],
        testPatch: instance.test_patch,
        read: ["tests/test_hidden.py"],
      },
      () => repo.checkout.reset(),
    );
    expect(apply.applied).toBe(true);
    expect(apply.strategy).not.toBe("git apply");
    expect(apply.log).toMatch(/^git apply: /);
    expect(prepared?.ok).toBe(true);
    expect(prepared?.files.map((f) => f.path)).toEqual(["tests/test_hidden.py"]);
    expect(readFileSync(join(repo.checkout.root, "calc.py"), "utf8")).toMatch(/a \+ b/);
  });
});
