import type { AssistantMessage, Message, ToolCall, ToolSpec, Usage } from "../messages/index.js";
import type { RecordedCall } from "./caps.js";

/** Version of the trajectory format; bump when a field changes meaning. */
export const TRAJECTORY_VERSION = 1;

export interface RunStartRecord {
  type: "run_start";
  version: number;
  run_id: string;
  started_at: string;
  task: string;
  policy: string;
  tools: string;
  history: string;
  limits: Record<string, number | null>;
  system: string;
  memory: string;
  tool_specs: ToolSpec[];
}

export interface ActionRecord {
  call: ToolCall;
  observation: string;
  error: string | null;
  duration_ms: number;
  files_changed: string[];
  /** An edit's change as a unified diff (the file tools'), for people reading the trajectory. */
  diff?: string;
  /**
   * Code actions: every tool call the program made, in order (input, output, error, duration), each
   * argument list and result cut to RECORDED_CALL_CHARS with a note saying how much (caps.ts).
   */
  calls?: RecordedCall[];
}

export interface TurnRecord {
  type: "turn";
  step: number;
  /**
   * The request, stored as a delta: the first `first_change` messages equal the previous request's,
   * `messages_from_first_change` holds the rest. Chaining deltas rebuilds every request exactly.
   */
  request: { message_count: number; first_change: number; messages_from_first_change: Message[] };
  response: AssistantMessage;
  model: string;
  finish_reason: string;
  usage: Usage;
  cost_usd: number | null;
  latency_ms: number;
  actions: ActionRecord[];
  /** Set when the response broke the protocol (no tool call, or only invalid calls). */
  format_error: string | null;
  /** Harness time for the turn, excluding the model call and the tools' own run time. */
  overhead_ms: number;
}

export interface RunEndRecord {
  type: "run_end";
  stop_reason: string;
  detail: string;
  steps: number;
  wall_s: number;
  usage: Usage;
  cost_usd: number | null;
  cache_busts: number;
}

/**
 * One stage of a fixed workflow (agentless: localise-files, localise-units, localise-lines, repair,
 * reproduce, validate, vote) and what came of it, so a reader can see why the submitted patch won.
 * The model calls of a stage are `turn` records carrying the same `stage`.
 */
export interface StageRecord {
  type: "stage";
  stage: string;
  /** `ok`, or `failed` when the stage's output was unusable (the run then ends, or goes on without it). */
  outcome: "ok" | "failed";
  /** A sentence: what the stage found, or why it failed and what to check. */
  detail: string;
  /** The stage's findings: files, units, ranges, candidates, evidence, the vote. */
  data: Record<string, unknown>;
}

/**
 * The conversation was compacted before the next request (src/loop/compaction.ts): old tool outputs
 * cleared, or everything but the first message and the last turns replaced by a summary. The next
 * `turn` record's request delta starts where the rewrite did, so chaining deltas still rebuilds it.
 */
export interface CompactionRecord {
  type: "compaction";
  /** `auto`: the loop found the context over its threshold; `manual`: `/compact`. */
  trigger: "auto" | "manual";
  stage: "cleared" | "summarised";
  /** Context size in tokens: the loop's estimate, or the provider's count of the last request when higher. */
  tokens_before: number;
  tokens_after: number;
  /** The results whose content was replaced by a marker (stage `cleared`). */
  cleared: Array<{ tool_call_id: string; tool: string; chars: number }>;
  /** Messages the summary replaced (stage `summarised`). */
  dropped_messages: number;
  /** Stage `summarised`: the model's summary, and what asking for it cost (also in the ledger as `compact`). */
  summary?: string;
  usage?: Usage;
  cost_usd?: number | null;
}

export type TrajectoryRecord = RunStartRecord | TurnRecord | StageRecord | CompactionRecord | RunEndRecord;
