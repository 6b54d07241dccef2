import type { ToolSpec } from "../policies/index.js";
import { type RunEndRecord, type RunStartRecord, TRAJECTORY_VERSION } from "../trajectory/index.js";
import type { Limits, RunOutcome } from "./types.js";

/** The trajectory's opening record: what ran, with which limits, prompt and tools. */
export function runStartRecord(run: {
  runId: string;
  task: string;
  policy: string;
  tools: string;
  history: string;
  limits: Limits;
  system: string;
  memory: string;
  toolSpecs: ToolSpec[];
}): RunStartRecord {
  return {
    type: "run_start",
    version: TRAJECTORY_VERSION,
    run_id: run.runId,
    started_at: new Date().toISOString(),
    task: run.task,
    policy: run.policy,
    tools: run.tools,
    history: run.history,
    limits: {
      max_steps: run.limits.maxSteps,
      budget_usd: run.limits.budgetUsd ?? null,
      wall_clock_ms: run.limits.wallClockMs,
      max_format_errors: run.limits.maxFormatErrors,
    },
    system: run.system,
    memory: run.memory,
    tool_specs: run.toolSpecs,
  };
}

/** The trajectory's closing record for a finished loop (a coding run or a computer-use episode). */
export function runEndRecord(
  outcome: Pick<RunOutcome, "detail" | "steps" | "wallMs" | "usage" | "costUsd" | "cacheBusts"> & {
    stopReason: string;
  },
): RunEndRecord {
  return {
    type: "run_end",
    stop_reason: outcome.stopReason,
    detail: outcome.detail,
    steps: outcome.steps,
    wall_s: outcome.wallMs / 1000,
    usage: outcome.usage,
    cost_usd: outcome.costUsd ?? null,
    cache_busts: outcome.cacheBusts,
  };
}
