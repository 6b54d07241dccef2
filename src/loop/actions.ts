import type { AssistantMessage } from "../messages/index.js";
import { isFormatError, type ToolRegistry } from "../tools/registry.js";
import type { ToolContext, ToolResult } from "../tools/types.js";
import { type ActionRecord, capRecordedCall } from "../trajectory/index.js";
import type { ChangeTracker } from "./changes.js";

export interface ExecutedCalls {
  actions: ActionRecord[];
  /** Time spent inside the tools themselves (excluded from harness overhead). */
  toolMs: number;
  submitted: boolean;
  /** True when there were calls and every one was a format error. */
  allInvalid: boolean;
}

/**
 * Run the calls of one reply in order. A call after `submit` is not run.
 */
export async function executeCalls(
  message: AssistantMessage,
  tools: ToolRegistry,
  ctx: ToolContext,
  changes: ChangeTracker,
): Promise<ExecutedCalls> {
  const actions: ActionRecord[] = [];
  let toolMs = 0;
  let submitted = false;
  let invalid = 0;
  for (const call of message.toolCalls) {
    if (submitted) {
      actions.push({
        call,
        observation: "not run: the task was already submitted",
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
      result = {
        error: "command_failed",
        output: `error: the ${call.name} tool failed internally: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    const duration = performance.now() - start;
    toolMs += duration;
    const changed = new Set(result.changedFiles ?? []);
    changes.noteEdited(result.changedFiles ?? []);
    if (tool?.kind === "execute") for (const path of await changes.afterCommand()) changed.add(path);
    if (isFormatError(result)) invalid += 1;
    if (result.submitted) submitted = true;
    actions.push({
      call,
      observation: result.output,
      error: result.error ?? null,
      duration_ms: Math.round(duration),
      files_changed: [...changed].sort(),
      // A program's nested calls were never read by the model: the trajectory keeps them capped.
      ...(result.calls ? { calls: result.calls.map((c) => capRecordedCall(c)) } : {}),
    });
  }
  return { actions, toolMs, submitted, allInvalid: actions.length > 0 && invalid === actions.length };
}
