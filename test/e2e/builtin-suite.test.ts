import { describe, expect, it } from "vitest";
import { listTaskIds, loadTask } from "../../src/tasks/index.js";

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

  // Each task's validity (the base fails FAIL_TO_PASS and passes PASS_TO_PASS, gold resolves) is
  // checked in builtin-scripts.test.ts, next to the run of its reference script that grades the same
  // patch: one sandboxed grading per patch, not two.
});
