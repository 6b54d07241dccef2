/**
 * Hooks around tool calls, one path for `acilab agent` and task runs alike: PreToolUse answers the
 * permission gate's question (gate.ts), PostToolUse may add to — or, exit 2, object to — a result
 * before the model reads it.
 */
import type { AnyTool, ToolResult } from "../tools/index.js";
import type { HookVerdict } from "./gate.js";
import { claudeCall } from "./tool-names.js";
import type { RunHooks } from "./types.js";

/** The fields every hook's stdin carries besides the event's own (session_id, cwd …). */
export type HookPayload = (extra: Record<string, unknown>) => Record<string, unknown>;

/**
 * The call's fields of a hook's stdin: Claude Code's `tool_name` and `tool_input` (so a hook that
 * checks `tool_name == "Bash"` fires), acilab's name as `acilab_tool_name`.
 */
function callFields(payload: HookPayload, tool: string, input: unknown): Record<string, unknown> {
  const cwd = payload({}).cwd;
  return { ...claudeCall(tool, input, typeof cwd === "string" ? cwd : undefined) };
}

/** What runs after a tool call, before the model reads its result: text added to the result, if any. */
export type AfterCall = (name: string, input: unknown, result: ToolResult) => Promise<string | undefined>;

/** Each tool, letting `after` add to its result before the model reads it. */
export function withAfterCall(tools: readonly AnyTool[], after: AfterCall): AnyTool[] {
  return tools.map((tool) => ({
    ...tool,
    execute: async (input: unknown, ctx: Parameters<AnyTool["execute"]>[1]) => {
      const result = await tool.execute(input, ctx);
      const extra = await after(tool.name, input, result);
      return extra ? { ...result, output: `${result.output}\n\n${extra}` } : result;
    },
  }));
}

/** The tools with the PostToolUse hooks run after each call. */
export function withPostToolUse(
  tools: readonly AnyTool[],
  hooks: RunHooks,
  payload: HookPayload,
  notice: (text: string) => void,
): AnyTool[] {
  return withAfterCall(tools, async (name, input, result) => {
    const after = await hooks(
      "PostToolUse",
      payload({
        hook_event_name: "PostToolUse",
        ...callFields(payload, name, input),
        tool_response: { output: result.output, error: result.error ?? null },
      }),
    );
    for (const e of after.errors) notice(e);
    if (after.block !== undefined) return `PostToolUse hook: ${after.block}`;
    return after.additionalContext;
  });
}

/** The gate's `preToolUse`: the PreToolUse hooks' combined verdict on one call. */
export function preToolUse(
  hooks: RunHooks,
  payload: HookPayload,
  notice: (text: string) => void,
): (tool: string, input: unknown) => Promise<HookVerdict> {
  return async (tool, input) => {
    const out = await hooks(
      "PreToolUse",
      payload({ hook_event_name: "PreToolUse", ...callFields(payload, tool, input) }),
    );
    for (const e of out.errors) notice(e);
    return {
      ...(out.block !== undefined ? { block: out.block } : {}),
      ...(out.decision !== undefined ? { decision: out.decision } : {}),
      ...(out.reason !== undefined ? { reason: out.reason } : {}),
    };
  };
}
