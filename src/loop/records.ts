import type { Message } from "../messages/index.js";
import type { PolicyReply, ToolSpec } from "../policies/index.js";
import {
  type ActionRecord,
  type RunEndRecord,
  type RunStartRecord,
  TRAJECTORY_VERSION,
  type TurnRecord,
  withoutImageData,
} from "../trajectory/index.js";
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

/** One turn as the trajectory keeps it: the request as a delta (images as refs, never bytes), the reply, the calls. */
export function turnRecord(turn: {
  step: number;
  request: readonly Message[];
  firstChange: number;
  reply: PolicyReply;
  costUsd: number | undefined;
  modelMs: number;
  actions: ActionRecord[];
  formatError: string | null;
  overheadMs: number;
  /** Fields an observer adds (computer use: `cua`). */
  extra: Record<string, unknown> | undefined;
}): TurnRecord {
  return {
    type: "turn",
    step: turn.step,
    request: {
      message_count: turn.request.length,
      first_change: turn.firstChange,
      messages_from_first_change: withoutImageData(turn.request.slice(turn.firstChange)),
    },
    response: turn.reply.message,
    model: turn.reply.model,
    finish_reason: turn.reply.finishReason,
    usage: turn.reply.usage,
    cost_usd: turn.costUsd ?? null,
    latency_ms: Math.round(turn.modelMs),
    actions: turn.actions,
    format_error: turn.formatError,
    overhead_ms: turn.overheadMs,
    ...turn.extra,
  };
}
