/** Scripted responses in the Chat Completions wire format: `chat.completion.chunk` lines, then `[DONE]`. */
import { splitEvenly } from "./anthropic-wire.js";
import type { ScriptedResponse, SseEvent } from "./loopback.js";

export interface OpenAIScript {
  model?: string;
  text?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  finishReason?: string;
  /** null: send no usage chunk, as some OpenAI-compatible servers do. */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number } | null;
  /** How many pieces each call's arguments are split into. */
  argumentPieces?: number;
  /** Send the calls' fragments round-robin, so only `index` tells them apart. */
  interleave?: boolean;
}

export const OPENAI_TEST_MODEL = "gpt-test-1";

export function openaiStream(script: OpenAIScript): ScriptedResponse {
  const model = script.model ?? OPENAI_TEST_MODEL;
  const wantsUsage = script.usage !== null;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
    data: JSON.stringify({
      id: "chatcmpl-loopback01",
      object: "chat.completion.chunk",
      created: 1_760_000_000,
      model,
      system_fingerprint: "fp_loopback",
      choices,
      // With include_usage, every chunk carries `usage: null` until the last one.
      ...(wantsUsage ? { usage: null } : {}),
      ...extra,
    }),
  });
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

  const events: SseEvent[] = [delta({ role: "assistant", content: "", refusal: null })];
  for (const piece of (script.text ?? "").split(/(?<= )/).filter((p) => p !== "")) {
    events.push(delta({ content: piece }));
  }
  const perCall = (script.toolCalls ?? []).map((call, index) => [
    { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
    ...splitEvenly(call.arguments, script.argumentPieces ?? 3).map((args) => ({
      index,
      function: { arguments: args },
    })),
  ]);
  const fragments = script.interleave ? roundRobin(perCall) : perCall.flat();
  for (const fragment of fragments) events.push(delta({ tool_calls: [fragment] }));

  const finish = script.finishReason ?? ((script.toolCalls ?? []).length > 0 ? "tool_calls" : "stop");
  events.push(delta({}, finish));
  if (script.usage) {
    const { prompt_tokens, completion_tokens, cached_tokens = 0 } = script.usage;
    events.push(
      chunk([], {
        usage: {
          prompt_tokens,
          completion_tokens,
          total_tokens: prompt_tokens + completion_tokens,
          prompt_tokens_details: { cached_tokens, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
        },
      }),
    );
  }
  events.push({ data: "[DONE]" });
  return { kind: "sse", events, headers: { "x-request-id": "req_loopback_01" } };
}

/** An HTTP error with OpenAI's body shape and headers, e.g. `retry-after-ms` on 429. */
export function openaiError(
  status: number,
  message: string,
  type: string,
  code: string | null = null,
  headers: Record<string, string> = {},
): ScriptedResponse {
  return {
    kind: "json",
    status,
    body: { error: { message, type, param: null, code } },
    headers: { "x-request-id": "req_loopback_err", ...headers },
  };
}

function roundRobin<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((list) => i < list.length); i++) {
    for (const list of lists) {
      const item = list[i];
      if (item !== undefined) out.push(item);
    }
  }
  return out;
}
