import type { AssistantMessage } from "../messages/index.js";
import type { BaseToolContext, ToolResult } from "../tools/index.js";
import { failure, isFormatError, type ToolRegistry } from "../tools/index.js";
import { type ActionRecord, capRecordedCall } from "../trajectory/index.js";
import type { ChangeTracker } from "./changes.js";

export interface ExecutedCalls {
  actions: ActionRecord[];
  /** The results of the calls that ran, in order (what an observer is shown). */
  results: ToolResult[];
  /** How many of `actions` ran (the first ones); the rest were answered "not run". */
  ran: number;
  /** Time spent inside the tools themselves (excluded from harness overhead). */
  toolMs: number;
  /** Set when a call submitted; `summary` when it said what it did. */
  submitted: { summary?: string } | undefined;
  /** True when calls ran and every one was a format error. */
  allInvalid: boolean;
}

export interface CallOptions {
  /** Tracks the files each call changed; absent when the context has no workspace. */
  changes?: ChangeTracker | undefined;
  /** Calls run per reply; undefined = all of them. */
  maxCalls?: number | undefined;
}

/**
 * Run the calls of one reply in order. A call after `submit` is not run, nor one past `maxCalls`.
 */
export async function executeCalls<C extends BaseToolContext>(
  message: AssistantMessage,
  tools: ToolRegistry<C>,
  ctx: C,
  options: CallOptions = {},
): Promise<ExecutedCalls> {
  const { changes, maxCalls } = options;
  const actions: ActionRecord[] = [];
  const results: ToolResult[] = [];
  let toolMs = 0;
  let submitted: ExecutedCalls["submitted"];
  let invalid = 0;
  for (const call of message.toolCalls) {
    const skipped = submitted
      ? "not run: the task was already submitted"
      : maxCalls !== undefined && results.length >= maxCalls
        ? notRunPastLimit(maxCalls)
        : undefined;
    if (skipped) {
      actions.push({
        call,
        observation: skipped,
        error: "command_failed",
        duration_ms: 0,
        files_changed: [],
      });
      continue;
    }
    const tool = tools.get(call.name);
    const start = performance.now();
    let result: ToolResult;
    try {
      result = await tools.call(call, ctx);
    } catch (err) {
      // A tool's infrastructure failed (not the model's fault): tell the model and keep going.
      result = failure(
        "command_failed",
        `the ${call.name} tool failed internally: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const duration = performance.now() - start;
    toolMs += duration;
    const changed = new Set(result.changedFiles ?? []);
    changes?.noteEdited(result.changedFiles ?? []);
    if (changes && tool?.kind === "execute")
      for (const path of await changes.afterCommand()) changed.add(path);
    if (isFormatError(result)) invalid += 1;
    if (result.submitted) submitted = result.summary !== undefined ? { summary: result.summary } : {};
    results.push(result);
    actions.push({
      call,
      observation: result.output,
      error: result.error ?? null,
      duration_ms: Math.round(duration),
      files_changed: [...changed].sort(),
      ...(result.diff !== undefined ? { diff: result.diff } : {}),
      // A program's nested calls were never read by the model: the trajectory keeps them capped.
      ...(result.calls ? { calls: result.calls.map((c) => capRecordedCall(c)) } : {}),
    });
  }
  const ran = results.length;
  return { actions, results, ran, toolMs, submitted, allInvalid: ran > 0 && invalid === ran };
}

function notRunPastLimit(max: number): string {
  return max === 1
    ? "not run: one action per turn, and only the first call of your reply was run."
    : `not run: at most ${max} calls per turn, and only the first ${max} of your reply were run.`;
}
