import type { ToolCall } from "../messages/index.js";

/**
 * Reads a tool call's streamed arguments strictly. A bad argument is an observation, not an exception:
 * the call comes back with the raw text and a `parseError` the loop shows to the model.
 */
export function parseToolCall(
  id: string,
  name: string,
  raw: string,
  finishReason: string,
  whenEmpty: unknown = {},
): ToolCall {
  if (raw.trim() === "") return { id, name, input: whenEmpty };
  try {
    return { id, name, input: JSON.parse(raw) };
  } catch (error) {
    return { id, name, input: raw, parseError: parseErrorText(error, finishReason) };
  }
}

function parseErrorText(error: unknown, finishReason: string): string {
  const why = error instanceof Error ? error.message : String(error);
  // Anthropic says max_tokens, OpenAI says length: either way the JSON was cut off, not wrong.
  const cutOff = finishReason === "max_tokens" || finishReason === "length";
  return cutOff
    ? `the tool input was cut off at the output token limit (${why}); send a shorter call`
    : `the tool input is not valid JSON (${why}); send the arguments as one JSON object`;
}
