import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runTask } from "../../src/loop/index.js";
import { listTaskIds, loadTask } from "../../src/tasks/index.js";

const out = mkdtempSync(join(tmpdir(), "acilab-e2e-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The first four tasks carry scripts for the shell arms too; every task has one for `full`. */
const SHELL_ARMS = new Set(["median-even", "exc-chain", "semver-range", "lru-recency"]);

describe.concurrent("every built-in task's reference script", () => {
  for (const id of listTaskIds()) {
    const task = loadTask(id);
    for (const tools of SHELL_ARMS.has(id) ? ["full", "shell-only"] : ["full"]) {
      it(`${id} · ${tools}: ${task.impossible ? "ends unresolved (the task is impossible)" : "resolves it"}, and the hidden tests stay hidden`, async () => {
        const dir = join(out, `${id}-${tools}`);
        const result = await runTask({ task, policySpec: "scripted", tools, history: "all", out: dir });
        expect(result).toMatchObject({
          resolved: !task.impossible,
          stop_reason: "submitted",
          tools,
          cost_usd: 0,
          tokens_estimated: true,
        });
        const trajectory = readFileSync(join(dir, "trajectory.jsonl"), "utf8");
        for (const hidden of task.failToPass)
          expect(trajectory).not.toContain(hidden.split("::").at(-1) ?? hidden);
      }, 180_000);
    }
  }
});
