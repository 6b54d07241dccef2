import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gradeTask, NOOP_PATCH } from "../../src/eval/index.js";
import { actorOf, type CodingRunResult, codingRun, runKind } from "../../src/run/index.js";
import { listTaskIds, loadTask, type Task } from "../../src/tasks/index.js";

/*
 * Every built-in task end to end, each run once: its reference script through the real loop, tools,
 * sandbox and grader (hidden tests applied to a fresh copy after the agent stopped), and the task's
 * validity as `acilab tasks validate` defines it — the untouched base fails every FAIL_TO_PASS test and
 * passes every PASS_TO_PASS one, and the gold patch resolves the task (an impossible task's does not).
 * A script that ends with exactly the gold patch and resolves has had that patch graded already; only
 * the other tasks' gold patches are graded again.
 */
const out = mkdtempSync(join(tmpdir(), "acilab-e2e-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The first four tasks carry scripts for the shell arms too; every task has one for `full`. */
const SHELL_ARMS = new Set(["median-even", "exc-chain", "semver-range", "lru-recency"]);

interface ScriptedRun {
  result: CodingRunResult;
  dir: string;
  patch: string;
}

/** One run per task and tools, shared by the tests that read it (whichever asks first starts it). */
const runs = new Map<string, Promise<ScriptedRun>>();
function scriptedRun(task: Task, tools: string): Promise<ScriptedRun> {
  const key = `${task.id}-${tools}`;
  let run = runs.get(key);
  if (!run) {
    const dir = join(out, key);
    run = runKind(codingRun(task, { tools, history: "all" }), { actor: actorOf("scripted"), out: dir }).then(
      (result) => ({
        result,
        dir,
        patch: readFileSync(join(dir, "patch.diff"), "utf8"),
      }),
    );
    runs.set(key, run);
  }
  return run;
}

describe.concurrent("every built-in task", () => {
  for (const id of listTaskIds()) {
    const task = loadTask(id);
    for (const tools of SHELL_ARMS.has(id) ? ["full", "shell-only"] : ["full"]) {
      it(`${id} · ${tools}: the reference script ${task.impossible ? "ends unresolved (the task is impossible)" : "resolves it"}, and the hidden tests stay hidden`, async () => {
        const { result, dir } = await scriptedRun(task, tools);
        const why = `stopped: ${result.stop_reason} (${result.detail}); graded ${result.grade.outcome}: ${result.grade.detail}`;
        expect(result, why).toMatchObject({
          resolved: !task.impossible,
          stop_reason: "submitted",
          tools,
          cost_usd: 0,
          usage: { estimated: true },
        });
        const trajectory = readFileSync(join(dir, "trajectory.jsonl"), "utf8");
        for (const hidden of task.failToPass)
          expect(trajectory).not.toContain(hidden.split("::").at(-1) ?? hidden);
      });
    }

    it(`${id} is valid: the base fails every FAIL_TO_PASS test and passes every PASS_TO_PASS one, and the gold patch ${task.impossible ? "does not resolve it" : "resolves it"}`, async () => {
      const base = (await gradeTask(task, NOOP_PATCH)).report;
      expect(base.outcome, base.detail).toBe("graded");
      expect(base.rejected, "the base's test log is not trusted").toBeNull();
      expect(base.tests_status.FAIL_TO_PASS.success, "FAIL_TO_PASS tests passing at the base").toEqual([]);
      expect(base.tests_status.PASS_TO_PASS.failure, "PASS_TO_PASS tests failing at the base").toEqual([]);

      // The script's run graded its patch with the same grader: when that patch is the gold patch and
      // resolved, the gold patch resolves. An unresolved run proves less (it may have changes the patch
      // cannot carry), so impossible tasks, and scripts that end with another fix, grade gold here.
      const run = await scriptedRun(task, "full").catch(() => undefined);
      if (run?.patch === task.goldPatch && run.result.resolved) return;
      const gold = (await gradeTask(task, task.goldPatch)).report;
      expect(gold.outcome, gold.detail).toBe("graded");
      expect(gold.resolved, gold.detail).toBe(!task.impossible);
    });
  }
});
