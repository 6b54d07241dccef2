import { describe, expect, it } from "vitest";
import { validateInstance } from "../../src/eval/index.js";
import { listTaskIds, loadTask, taskInstance } from "../../src/tasks/index.js";

const ids = listTaskIds();
const tasks = ids.map((id) => loadTask(id));

describe("the built-in suite", () => {
  it("has ≥ 24 tasks over ≥ 6 libraries in Python and TypeScript, ≥ 2 of them impossible", () => {
    expect(ids.length).toBeGreaterThanOrEqual(24);
    const libraries = new Set(tasks.map((t) => (t.source.kind === "library" ? t.source.library.name : t.id)));
    expect(libraries.size).toBeGreaterThanOrEqual(6);
    expect(new Set(tasks.map((t) => t.language))).toEqual(new Set(["python", "typescript"]));
    expect(tasks.filter((t) => t.impossible).length).toBeGreaterThanOrEqual(2);
    expect(tasks.every((t) => t.source.kind === "library")).toBe(true);
  });

  it("never names a file the gold patch changes in an issue", () => {
    for (const t of tasks) {
      const files = t.goldPatch.match(/^\+\+\+ b\/(.+)$/gm)?.map((l) => l.slice(6)) ?? [];
      for (const file of files) expect(t.issue, `${t.id} names ${file}`).not.toContain(file);
    }
  });

  // Gold resolves (an impossible task's does not), the base fails every FAIL_TO_PASS test and passes
  // every PASS_TO_PASS one. Concurrent: each grading is mostly waiting on its sandboxed test run.
  describe.concurrent("every task is valid", () => {
    for (const id of ids) {
      it(id, async () => {
        const v = await validateInstance(await taskInstance(loadTask(id)), { runs: 1 });
        expect(v.problems).toEqual([]);
      }, 120_000);
    }
  });
});
