import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keepAll } from "../src/history/index.js";
import { Ledger } from "../src/ledger/index.js";
import { runAgent } from "../src/loop/index.js";
import { ScriptedPolicy } from "../src/policies/index.js";
import { ProcessSandbox } from "../src/sandbox/index.js";
import { newEditorState, ToolRegistry, toolset } from "../src/tools/index.js";
import { TrajectoryWriter } from "../src/trajectory/index.js";
import { commitAll } from "../src/workspace/index.js";
import { type BenchRow, summarise } from "./stats.js";

/** Steps in the overhead run: enough for a stable median, small enough to finish in seconds. */
const OVERHEAD_STEPS = 300;

/**
 * Harness overhead per agent step: the loop with a scripted policy over a real workspace, real tools
 * and a real trajectory file, minus the time inside the policy and inside the tools. What is left is
 * ours: history processing, validation, dispatch, ledger, trajectory writes, change tracking.
 */
export async function benchOverhead(): Promise<BenchRow[]> {
  const ws = mkdtempSync(join(tmpdir(), "acilab-bench-overhead-"));
  mkdirSync(join(ws, "pkg"));
  for (let i = 0; i < 20; i++) {
    writeFileSync(
      join(ws, "pkg", `m${i}.py`),
      `FLAG = 0\n\n${`def f${i}(x):\n    return x + ${i}\n\n`.repeat(30)}`,
    );
  }
  await commitAll(ws, "bench base");
  const turns = [];
  for (let i = 0; i < OVERHEAD_STEPS / 3; i++) {
    turns.push({ tool: "view", input: { path: `pkg/m${i % 20}.py`, start: 1 } });
    const [from, to] = i % 2 === 0 ? ["FLAG = 0", "FLAG = 1"] : ["FLAG = 1", "FLAG = 0"];
    turns.push({ tool: "str_replace", input: { path: "pkg/m0.py", old: from, new: to } });
    turns.push({ tool: "search_file", input: { term: "return", path: "pkg/m1.py" } });
  }
  turns.push({ tool: "submit", input: {} });
  const sandbox = new ProcessSandbox({ workspace: ws });
  const trajPath = join(tmpdir(), `acilab-bench-${Date.now()}.jsonl`);
  const trajectory = new TrajectoryWriter(trajPath);
  try {
    const outcome = await runAgent({
      policy: new ScriptedPolicy("scripted:bench", { turns: turns.map((t) => ({ thought: "", ...t })) }),
      tools: new ToolRegistry(toolset("full").tools),
      context: {
        root: ws,
        sandbox,
        editor: newEditorState(),
        testCommand: undefined,
        commandTimeoutMs: 10_000,
      },
      history: keepAll(),
      limits: {
        maxSteps: OVERHEAD_STEPS + 10,
        budgetUsd: undefined,
        wallClockMs: 600_000,
        maxFormatErrors: 3,
      },
      ledger: new Ledger(),
      trajectory,
      system: "bench",
      memory: "",
      task: "bench",
      maxOutputTokens: 1000,
    });
    if (outcome.stopReason !== "submitted")
      throw new Error(`overhead bench run stopped early: ${outcome.detail}`);
    return [summarise("harness overhead per step (view/str_replace/search mix)", outcome.overheadMs, 2)];
  } finally {
    trajectory.close();
    await sandbox.close();
    rmSync(ws, { recursive: true, force: true });
    rmSync(trajPath, { force: true });
  }
}
