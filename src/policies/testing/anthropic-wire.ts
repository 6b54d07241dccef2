/** Scripted responses in the Anthropic Messages wire format, streamed event by event as the API sends them. */
import type { ScriptedResponse, SseEvent } from "./loopback.js";

export type AnthropicBlock = { text: string } | { toolUse: { id: string; name: string; json: string } };

export interface AnthropicScript {
  model?: string;
  blocks: AnthropicBlock[];
  stopReason?: string;
  usage?: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
  /** How many `input_json_delta` pieces each tool input is split into. */
  jsonPieces?: number;
}

export const ANTHROPIC_TEST_MODEL = "claude-test-1";

export function anthropicStream(script: AnthropicScript): ScriptedResponse {
  const usage = script.usage ?? { input_tokens: 10, output_tokens: 5 };
  const events: SseEvent[] = [];
  const send = (type: string, payload: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, ...payload }) });

  send("message_start", {
    message: {
      id: "msg_loopback_01",
      type: "message",
      role: "assistant",
      model: script.model ?? ANTHROPIC_TEST_MODEL,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        output_tokens: 1,
      },
    },
  });
  script.blocks.forEach((block, index) => {
    if ("text" in block) {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      if (index === 0) send("ping", {});
      for (const piece of splitWords(block.text)) {
        send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
      }
    } else {
      const { id, name, json } = block.toolUse;
      send("content_block_start", { index, content_block: { type: "tool_use", id, name, input: {} } });
      // The API opens every tool input with an empty piece before the JSON itself.
      for (const piece of ["", ...splitEvenly(json, script.jsonPieces ?? 3)]) {
        send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
      }
    }
    send("content_block_stop", { index });
  });
  send("message_delta", {
    delta: { stop_reason: script.stopReason ?? "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  send("message_stop", {});
  return { kind: "sse", events, headers: { "request-id": "req_loopback_01" } };
}

/** An HTTP error with the body and headers the API sends, e.g. `retry-after` on 429. */
export function anthropicError(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): ScriptedResponse {
  return {
    kind: "json",
    status,
    body: { type: "error", error: { type, message }, request_id: "req_loopback_err" },
    headers: { "request-id": "req_loopback_err", ...headers },
  };
}

/** A stream that starts fine and then reports an error event, as the API does when it overloads mid-answer. */
export function anthropicStreamError(type: string, message: string): ScriptedResponse {
  const start = anthropicStream({ blocks: [] });
  const events = start.kind === "sse" ? start.events.slice(0, 1) : [];
  events.push({ event: "error", data: JSON.stringify({ type: "error", error: { type, message } }) });
  return { kind: "sse", events };
}

export function splitEvenly(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function splitWords(text: string): string[] {
  return text.split(/(?<= )/).filter((piece) => piece !== "");
}
