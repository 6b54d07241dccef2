import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gradePatch } from "../../src/eval/index.js";
import { runTask } from "../../src/loop/index.js";
import { listTaskIds, loadTask } from "../../src/tasks/index.js";

const out = mkdtempSync(join(tmpdir(), "acilab-e2e-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ids = listTaskIds();

describe("built-in tasks", () => {
  it("has at least 3 tasks, Python and TypeScript, median-even among them", () => {
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(ids).toContain("median-even");
    expect(new Set(ids.map((id) => loadTask(id).language))).toEqual(new Set(["python", "typescript"]));
  });

  for (const id of ids) {
    describe(id, () => {
      it("is valid: the gold patch resolves, a no-op patch does not, and the issue names no file", async () => {
        const task = loadTask(id);
        expect((await gradePatch(task, task.goldPatch)).resolved).toBe(true);
        const noop =
          "diff --git a/NOTES.txt b/NOTES.txt\nnew file mode 100644\n--- /dev/null\n+++ b/NOTES.txt\n@@ -0,0 +1 @@\n+nothing\n";
        const unfixed = await gradePatch(task, noop);
        expect(unfixed.patch_successfully_applied).toBe(true);
        expect(unfixed.tests_status.FAIL_TO_PASS.success).toEqual([]);
        expect(unfixed.tests_status.PASS_TO_PASS.failure).toEqual([]);
        expect(unfixed.resolved).toBe(false);
        const sourceFiles = task.goldPatch.match(/^\+\+\+ b\/(.+)$/gm)?.map((l) => l.slice(6)) ?? [];
        for (const file of sourceFiles) expect(task.issue).not.toContain(file);
      });

      for (const tools of ["full", "shell-only"]) {
        it(`is resolved by its reference script with the ${tools} tool set, and the hidden tests stay hidden`, async () => {
          const dir = join(out, `${id}-${tools}`);
          const result = await runTask({
            task: loadTask(id),
            policySpec: "scripted",
            tools,
            history: "all",
            out: dir,
          });
          expect(result).toMatchObject({
            resolved: true,
            stop_reason: "submitted",
            tools,
            cost_usd: 0,
            tokens_estimated: true,
          });
          const trajectory = readFileSync(join(dir, "trajectory.jsonl"), "utf8");
          for (const hidden of [...loadTask(id).failToPass])
            expect(trajectory).not.toContain(hidden.split("::").at(-1) ?? hidden);
        });
      }
    });
  }
});
