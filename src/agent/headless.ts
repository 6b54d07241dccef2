/**
 * `acilab agent -p`: one turn, no questions asked, output a script can read — in Claude Code's shapes,
 * so tools written for `claude -p` read ours: `text` (the answer), `json` (one result object) and
 * `stream-json` (an init event, one event per assistant message and per batch of tool results, then
 * the same result object). acilab's own fields sit under `acilab`.
 */

import { claudeCall, type TodoItem } from "../harness/index.js";
import type { RunOutcome, StopReason } from "../loop/index.js";
import type { AssistantMessage, Usage } from "../messages/index.js";
import type { ToolResult } from "../tools/index.js";
import type { AgentEvents } from "./events.js";

export type OutputFormat = "text" | "json" | "stream-json";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

/** Exit codes: 0 answered; 1 the agent stopped without an answer (a limit, a model error); 2 usage or setup. */
export const EXIT = { ok: 0, stopped: 1, usage: 2 } as const;

/** Claude Code's result subtypes, from acilab's stop reasons. */
export function resultSubtype(reason: StopReason): string {
  switch (reason) {
    case "submitted":
      return "success";
    case "step_limit":
      return "error_max_turns";
    case "budget":
      return "error_max_budget_usd";
    default:
      return "error_during_execution";
  }
}

/** Usage in Anthropic's field names. */
function wireUsage(u: Usage): Record<string, number> {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
  };
}

function assistantContent(m: AssistantMessage): unknown[] {
  const parts: unknown[] = [];
  if (m.content !== "") parts.push({ type: "text", text: m.content });
  for (const c of m.toolCalls) {
    const call = claudeCall(c.name, c.input);
    parts.push({
      type: "tool_use",
      id: c.id,
      name: call.tool_name,
      input: call.tool_input,
      acilab_name: c.name,
    });
  }
  return parts;
}

export interface ResultFields {
  sessionId: string;
  outcome: RunOutcome;
  answer: string;
  durationMs: number;
  denials: ReadonlyArray<{ tool: string; input: unknown; reason: string }>;
  /** acilab's own: what changed, whether it went to the real tree, where the patch is. */
  changedFiles: readonly string[];
  applied: boolean;
  patchFile: string;
  checkpoints: number;
  agents: ReadonlyArray<{ agent: string; requests: number; knownCostUsd: number }>;
}

export function resultObject(r: ResultFields): Record<string, unknown> {
  const o = r.outcome;
  return {
    type: "result",
    subtype: resultSubtype(o.stopReason),
    is_error: o.stopReason !== "submitted",
    duration_ms: Math.round(r.durationMs),
    duration_api_ms: Math.round(o.wallMs),
    num_turns: o.steps,
    result: o.stopReason === "submitted" ? r.answer : o.detail,
    session_id: r.sessionId,
    total_cost_usd: o.costUsd ?? null,
    usage: wireUsage(o.usage),
    // Claude Code's names (`Bash`), so a script written for `claude -p` reads them; acilab's beside.
    permission_denials: r.denials.map((d) => ({ ...claudeCall(d.tool, d.input), reason: d.reason })),
    acilab: {
      stop_reason: o.stopReason,
      detail: o.detail,
      changed_files: r.changedFiles,
      applied: r.applied,
      patch: r.patchFile,
      checkpoints: r.checkpoints,
      agents: r.agents,
      usage_estimated: o.usage.estimated === true,
    },
  };
}

/** The events of a headless run: stream-json prints them as they happen; the other formats stay quiet. */
export class HeadlessEvents implements AgentEvents {
  private pendingResults: unknown[] = [];

  /** Set once the session exists (the events are made before it). */
  sessionId = "";

  constructor(
    private readonly format: OutputFormat,
    private readonly write: (line: string) => void,
    /** Notices go to stderr in every format: stdout stays parseable. */
    private readonly warn: (line: string) => void,
  ) {}

  init(fields: { cwd: string; tools: string[]; model: string; permissionMode: string }): void {
    this.emit({
      type: "system",
      subtype: "init",
      session_id: this.sessionId,
      cwd: fields.cwd,
      tools: fields.tools,
      model: fields.model,
      permissionMode: fields.permissionMode,
    });
  }

  assistant(
    message: AssistantMessage,
    reply: { usage: Usage; model: string; agent: string | undefined },
  ): void {
    this.flushResults();
    this.emit({
      type: "assistant",
      message: {
        type: "message",
        role: "assistant",
        model: reply.model,
        content: assistantContent(message),
        stop_reason: message.toolCalls.length > 0 ? "tool_use" : "end_turn",
        usage: wireUsage(reply.usage),
      },
      parent_tool_use_id: reply.agent ?? null,
      session_id: this.sessionId,
    });
  }

  toolResult(call: { id: string; name: string }, result: ToolResult): void {
    this.pendingResults.push({
      type: "tool_result",
      tool_use_id: call.id,
      tool_name: claudeCall(call.name, undefined).tool_name,
      acilab_tool_name: call.name,
      content: result.output,
      is_error: result.error !== undefined,
    });
  }

  todos(items: readonly TodoItem[]): void {
    this.emit({ type: "system", subtype: "todos", session_id: this.sessionId, todos: items });
  }

  notice(text: string): void {
    this.warn(text);
  }

  /** The end: tool results not yet sent, then the result object (or, for text, the answer). */
  finish(result: Record<string, unknown>): void {
    this.flushResults();
    if (this.format === "text") this.write(String(result.result ?? ""));
    else if (this.format === "json") this.write(JSON.stringify(result));
    else this.emit(result);
  }

  private flushResults(): void {
    if (this.pendingResults.length === 0) return;
    this.emit({
      type: "user",
      message: { role: "user", content: this.pendingResults },
      session_id: this.sessionId,
    });
    this.pendingResults = [];
  }

  private emit(event: Record<string, unknown>): void {
    if (this.format === "stream-json") this.write(JSON.stringify(event));
  }
}
