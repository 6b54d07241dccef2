/**
 * Trajectory records of a computer-use episode, in the same JSONL format as coding runs (run_start,
 * turn, run_end) plus a `cua` field per turn. Images are stored as refs to the saved frames, never
 * as base64: a 30-step run would otherwise write ~100 MB of JSON.
 */
import { runEndRecord } from "../loop/index.js";
import type { Message, ToolCall } from "../messages/index.js";
import type { PolicyReply, ToolSpec } from "../policies/index.js";
import {
  type RunEndRecord,
  type RunStartRecord,
  TRAJECTORY_VERSION,
  type TurnRecord,
} from "../trajectory/index.js";
import type { ActResult } from "./act.js";
import type { CuaLimits, CuaOutcome } from "./episode.js";
import type { SeenFrame } from "./perceive.js";
import type { ObserveKind, ScreenAction, Size } from "./types.js";

/** Per-turn computer-use detail, alongside the standard turn fields. */
export interface CuaTurnDetail {
  /** The saved frame shown after this turn's action (relative to the trajectory's folder). */
  frame: string | null;
  delta: number | null;
  stalls: number;
  repeats: number;
  /** What the environment executed, in screen pixels (null when nothing ran). */
  screen_action: ScreenAction | null;
  blocked: string | null;
  warnings: string[];
  capture_ms: number | null;
}

export type CuaTurnRecord = TurnRecord & { cua: CuaTurnDetail };

/** The messages with image bytes replaced by their refs (the frames are on disk beside the trajectory). */
export function withoutImageData(messages: readonly Message[]): Message[] {
  return messages.map((m) =>
    (m.role === "user" || m.role === "tool") && m.images?.length
      ? { ...m, images: m.images.map((image) => ({ ...image, data: "" })) }
      : m,
  );
}

export function cuaRunStart(run: {
  runId: string;
  task: string;
  policy: string;
  observe: ObserveKind;
  history: string;
  limits: CuaLimits;
  system: string;
  tools: ToolSpec[];
  screen: Size;
  model: Size;
  tier: string;
}): RunStartRecord & { cua: { observe: ObserveKind; screen: Size; model: Size; tier: string } } {
  return {
    type: "run_start",
    version: TRAJECTORY_VERSION,
    run_id: run.runId,
    started_at: new Date().toISOString(),
    task: run.task,
    policy: run.policy,
    tools: `cua:${run.observe}`,
    history: run.history,
    limits: {
      max_steps: run.limits.maxSteps,
      budget_usd: run.limits.budgetUsd ?? null,
      wall_clock_ms: run.limits.wallClockMs,
    },
    system: run.system,
    memory: "",
    tool_specs: run.tools,
    cua: { observe: run.observe, screen: run.screen, model: run.model, tier: run.tier },
  };
}

export function cuaRunEnd(outcome: CuaOutcome, cacheBusts: number): RunEndRecord {
  return runEndRecord({ ...outcome, cacheBusts });
}

export interface Turn {
  step: number;
  request: Message[];
  reply: PolicyReply;
  cost: number | undefined;
  started: number;
  modelMs: number;
  /** Messages this request shares with the previous one (the trajectory stores the rest). */
  firstChange: number;
}

export interface TurnDetail {
  call?: ToolCall;
  result?: Extract<ActResult, { kind: "acted" }>;
  frame?: SeenFrame;
  stall?: { delta: number; stalls: number };
  repeats?: number;
  warnings?: string[];
}

/** The turn's record: the standard fields (request as a delta, images as refs) plus the `cua` detail. */
export function cuaTurnRecord(
  turn: Turn,
  observations: readonly Message[],
  detail: TurnDetail,
  time: { envMs: number; overheadMs: number },
): CuaTurnRecord {
  const { call, result, frame, stall } = detail;
  const first = turn.firstChange;
  const observation = observations.map((m) => m.content).join("\n");
  return {
    type: "turn",
    step: turn.step,
    request: {
      message_count: turn.request.length,
      first_change: first,
      messages_from_first_change: withoutImageData(turn.request.slice(first)),
    },
    response: turn.reply.message,
    model: turn.reply.model,
    finish_reason: turn.reply.finishReason,
    usage: turn.reply.usage,
    cost_usd: turn.cost ?? null,
    latency_ms: Math.round(turn.modelMs),
    actions: call
      ? [
          {
            call,
            observation,
            error: result?.error ? observation : null,
            duration_ms: Math.round(time.envMs),
            files_changed: [],
          },
        ]
      : [],
    format_error: call ? null : observation,
    overhead_ms: time.overheadMs,
    cua: {
      frame: frame?.image.ref ?? null,
      delta: stall?.delta ?? null,
      stalls: stall?.stalls ?? 0,
      repeats: detail.repeats ?? 0,
      screen_action: result?.screenAction ?? null,
      blocked: result?.blocked?.summary ?? null,
      warnings: detail.warnings ?? [],
      capture_ms: frame ? Math.round(frame.envMs) : null,
    },
  };
}
