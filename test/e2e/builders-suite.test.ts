import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mirror } from "../../src/builders/index.js";
import { validateInstance } from "../../src/eval/index.js";
import { loadInstances } from "../../src/swebench/index.js";
import { buildLibraryRepo, loadLibrary, packageRoot } from "../../src/tasks/index.js";

const out = mkdtempSync(join(tmpdir(), "acilab-mirror-e2e-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The task miner on a real history: textstats' own fix commits (each changes tests and a few source
 * lines) become instances that the grader then validates — gold resolves, the base does not, two runs
 * agree. This is the whole "any git repository → graded tasks" path, end to end.
 */
describe("tasks mirror on a built-in library's history", () => {
  it("yields validated instances", async () => {
    const repo = await buildLibraryRepo(loadLibrary(join(packageRoot(), "tasks", "libs"), "textstats"));
    const file = join(out, "textstats.jsonl");
    const report = await mirror({ repo, out: file });
    const instances = loadInstances(file);
    expect(
      instances.length,
      JSON.stringify(report.candidates.map((c) => [c.subject, c.reason])),
    ).toBeGreaterThanOrEqual(1);
    for (const instance of instances) {
      const v = await validateInstance(instance, { runs: 2 });
      expect(v.problems, instance.instance_id).toEqual([]);
    }
  });
});
