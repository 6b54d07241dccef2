import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gradeRun, type ProgressEvent } from "./run.js";
import { makeInstance, prediction, scriptedGrader } from "./testing.js";
import type { RunSummary } from "./types.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function outDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-grade-run-"));
  dirs.push(dir);
  return dir;
}

const instances = ["i-1", "i-2", "i-3", "i-4", "i-5", "i-6", "i-7"].map((id) =>
  makeInstance(id, id === "i-6" ? { impossible: true } : {}),
);
/** One of each outcome; i-7 has no prediction. */
const predictions = [
  prediction("i-1", "resolve src/a.py", { cost_usd: 1 }),
  prediction("i-2", "fail", { cost_usd: 1 }),
  prediction("i-3", "", { cost_usd: 0 }),
  prediction("i-4", "throw", { cost_usd: 1 }),
  prediction("i-5", "timeout", { cost_usd: 1 }),
  prediction("i-6", "resolve tests/test_a.py", { cost_usd: 1 }),
];

describe("gradeRun", () => {
  it("writes SWE-bench's layout and counts every outcome in its own list", async () => {
    const out = outDir();
    const grade = scriptedGrader();
    const { summary, summaryPath } = await gradeRun({
      instances,
      predictions,
      runId: "r1",
      outDir: out,
      grade,
    });
    expect(summaryPath).toBe(join(out, "r1", "org__model-x.r1.json"));
    expect(JSON.parse(readFileSync(summaryPath, "utf8"))).toEqual(summary);
    expect(summary).toMatchObject<Partial<RunSummary>>({
      total_instances: 7,
      submitted_instances: 6,
      completed_instances: 3,
      resolved_instances: 2,
      unresolved_instances: 1,
      empty_patch_instances: 1,
      error_instances: 1,
      resolved_ids: ["i-1", "i-6"],
      unresolved_ids: ["i-2"],
      empty_patch_ids: ["i-3"],
      error_ids: ["i-4"],
      timeout_ids: ["i-5"],
      incomplete_ids: ["i-7"],
      touches_tests_ids: ["i-6"],
      impossible_resolved_ids: ["i-6"],
      impossible_ids: ["i-6"],
      // 5 dollars over the one possible instance resolved: i-6's "resolved" is cheating, not a fix.
      cost_per_resolved_usd: 5,
      interrupted: false,
      pending_ids: [],
    });
    // SWE-bench's lists keep every verdict; the rate leaves the impossible instance out: 1 of 6.
    expect(summary.resolve_rate).toBeCloseTo(1 / 6);
    // The empty patch is counted, never graded (SWE-bench does the same).
    expect(grade.calls).not.toContain("i-3");
    const dir = join(out, "r1", "org__model-x", "i-1");
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(Object.keys(report)).toEqual(["i-1"]);
    expect(report["i-1"]).toMatchObject({ resolved: true, outcome: "graded", infra_failure: false });
    expect(readFileSync(join(dir, "patch.diff"), "utf8")).toBe("resolve src/a.py");
    expect(readFileSync(join(dir, "test_output.txt"), "utf8")).toMatch(/PASSED/);
    expect(existsSync(join(dir, "eval.sh"))).toBe(true);
    // A grader that throws: that instance is an error with the message, the rest went on.
    const error = JSON.parse(readFileSync(join(out, "r1", "org__model-x", "i-4", "report.json"), "utf8"))[
      "i-4"
    ];
    expect(error).toMatchObject({ outcome: "infrastructure_error", infra_failure: true, resolved: false });
    expect(error.detail).toMatch(/sandbox failed to start: bwrap missing/);
  });

  it("resumes: finished instances are reused, a changed prediction and an error are graded again", async () => {
    const out = outDir();
    await gradeRun({ instances, predictions, runId: "r", outDir: out, grade: scriptedGrader() });
    const again = scriptedGrader();
    const changed = predictions.map((p) =>
      p.instance_id === "i-2" ? { ...p, model_patch: "resolve now" } : p,
    );
    const events: ProgressEvent[] = [];
    const { summary } = await gradeRun({
      instances,
      predictions: changed,
      runId: "r",
      outDir: out,
      grade: again,
      onProgress: (e) => events.push(e),
    });
    expect(again.calls.sort()).toEqual(["i-2", "i-4"]);
    expect(summary.resolved_ids).toEqual(["i-1", "i-2", "i-6"]);
    expect(events.filter((e) => e.reused).map((e) => e.instance_id)).toEqual(["i-1", "i-3", "i-5", "i-6"]);
    const forced = scriptedGrader();
    await gradeRun({ instances, predictions: changed, runId: "r", outDir: out, grade: forced, rerun: true });
    expect(forced.calls.sort()).toEqual(["i-1", "i-2", "i-4", "i-5", "i-6"]);
  });

  it("an abort mid-run stops new work, keeps no report for the running one and resumes next time", async () => {
    const out = outDir();
    const many = ["a", "b", "c", "d"].map((id) => makeInstance(id));
    const preds = [
      prediction("a", "resolve"),
      prediction("b", "hang"),
      prediction("c", "resolve"),
      prediction("d", "fail"),
    ];
    const controller = new AbortController();
    const grade = scriptedGrader();
    const run = gradeRun({
      instances: many,
      predictions: preds,
      runId: "r",
      outDir: out,
      grade,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.instance_id === "a") setTimeout(() => controller.abort(), 20);
      },
    });
    const first = await run;
    expect(first.interrupted).toBe(true);
    expect(grade.calls).toEqual(["a", "b"]); // c and d never started
    expect(first.summary).toMatchObject({
      interrupted: true,
      resolved_ids: ["a"],
      pending_ids: ["b", "c", "d"],
    });
    const bDir = join(out, "r", "org__model-x", "b");
    expect(existsSync(join(bDir, "report.json"))).toBe(false);
    expect(JSON.parse(readFileSync(first.summaryPath, "utf8")).pending_ids).toEqual(["b", "c", "d"]);

    const resumed = scriptedGrader();
    const fixed = preds.map((p) => (p.instance_id === "b" ? { ...p, model_patch: "fail" } : p));
    const second = await gradeRun({
      instances: many,
      predictions: fixed,
      runId: "r",
      outDir: out,
      grade: resumed,
    });
    expect(resumed.calls).toEqual(["b", "c", "d"]);
    expect(second.summary).toMatchObject({ interrupted: false, pending_ids: [], resolved_ids: ["a", "c"] });
  });

  it("runs `workers` instances at once", async () => {
    const many = ["a", "b", "c", "d"].map((id) => makeInstance(id));
    const preds = many.map((i) => prediction(i.instance_id, "resolve wait:60"));
    const serial = scriptedGrader();
    await gradeRun({ instances: many, predictions: preds, runId: "s", outDir: outDir(), grade: serial });
    expect(serial.maxConcurrent).toBe(1);
    const parallel = scriptedGrader();
    const { summary } = await gradeRun({
      instances: many,
      predictions: preds,
      runId: "p",
      outDir: outDir(),
      grade: parallel,
      workers: 2,
    });
    expect(parallel.maxConcurrent).toBe(2);
    expect(summary.resolved_instances).toBe(4);
  });

  it("leaves cost per resolved unset unless every prediction has a cost, and refuses unsafe run ids", async () => {
    const one = [makeInstance("a"), makeInstance("b")];
    const { summary } = await gradeRun({
      instances: one,
      predictions: [prediction("a", "resolve", { cost_usd: 2 }), prediction("b", "resolve")],
      runId: "c",
      outDir: outDir(),
      grade: scriptedGrader(),
    });
    expect(summary.cost_per_resolved_usd).toBeNull();
    await expect(
      gradeRun({ instances: one, predictions: [], runId: "../x", outDir: outDir(), grade: scriptedGrader() }),
    ).rejects.toThrow(/run id "..\/x" cannot be used as a folder name/);
  });
});
