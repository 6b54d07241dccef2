import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTask, taskInstance } from "../tasks/index.js";
import { makePythonTask } from "../tasks/testing.js";
import { gradeInstance } from "./grade.js";

const dirs: string[] = [];
const saved = process.env.ACILAB_WORKSPACE_BYTES;
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  if (saved === undefined) delete process.env.ACILAB_WORKSPACE_BYTES;
  else process.env.ACILAB_WORKSPACE_BYTES = saved;
});

/** `git diff --binary` of a new file of `bytes` zeros (tiny as text: deflated). */
function zerosPatch(path: string, bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-zeros-"));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" });
  git("init", "-q");
  writeFileSync(join(dir, path), Buffer.alloc(bytes));
  git("add", "-N", path);
  return git("diff", "--binary");
}

describe("a patch that fills the grading checkout", () => {
  it("is graded unresolved with the reason, not reported as a harness failure", async () => {
    // The hidden tests bring a 5 MB fixture; the candidate a 5 MB file; the checkout holds 8 MB.
    const dir = makePythonTask({
      hidden: { "tests/fixture.bin": Buffer.alloc(5 * 1024 ** 2).toString("latin1") },
    });
    dirs.push(dir);
    const instance = await taskInstance(loadTask(dir));
    process.env.ACILAB_WORKSPACE_BYTES = "8M";
    const { report } = await gradeInstance(instance, {
      model_patch: `${instance.patch}${zerosPatch("ballast.bin", 5 * 1024 ** 2)}`,
    });
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.outcome).toBe("graded");
    expect(report.resolved).toBe(false);
    expect(report.detail).toMatch(/fills the workspace to its size cap/);
  });
});
