/**
 * The provider-neutral conversation. Every policy adapter translates to and from these types, and
 * the history processors, the loop and the trajectory all speak them, so nothing outside
 * `policies/` knows a provider's wire format.
 */

/** A tool call as the model proposed it. `input` is the parsed JSON arguments when they parsed. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /** Set when the model's arguments were not valid JSON; `input` then holds the raw text. */
  parseError?: string;
}

/**
 * A tool as the model is offered it: name, prose and the JSON Schema of its input object. Part of the
 * neutral vocabulary because requests (policies), tool registries and recorded trajectories all carry it.
 */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface SystemMessage {
  role: "system";
  content: string;
}

/**
 * An image shown to the model (a computer-use screenshot). Adapters send `data` as base64 PNG;
 * `ref` names the file the image was saved to, so a trajectory can store the path, not the bytes.
 */
export interface ImagePart {
  type: "image";
  mediaType: "image/png";
  /** Base64 of the PNG bytes; empty when the image was stripped for storage (then `ref` says where it is). */
  data: string;
  width: number;
  height: number;
  ref?: string;
}

export interface UserMessage {
  role: "user";
  content: string;
  /** Images after the text, in order (computer use); absent for text-only turns. */
  images?: ImagePart[];
}

export interface AssistantMessage {
  role: "assistant";
  /** The model's visible text (its thought), possibly empty. */
  content: string;
  toolCalls: ToolCall[];
}

export interface ToolMessage {
  role: "tool";
  /** The id of the call this message answers. */
  toolCallId: string;
  content: string;
  isError?: boolean;
  /** Images that belong to this result (computer use: the screen after the action). */
  images?: ImagePart[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Token counts of one model request, split the way providers bill them. */
export interface Usage {
  /** Input tokens billed at the full price (not read from or written to the cache). */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** True when the counts are estimates (scripted and replayed policies), not a provider's report. */
  estimated?: boolean;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
  if (a.estimated || b.estimated) sum.estimated = true;
  return sum;
}

/** A rough token count (4 characters a token) for policies that have no tokenizer behind them. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A one-line rendering of a call, used in collapsed history and human summaries. */
export function describeCall(call: Pick<ToolCall, "name" | "input">, maxChars = 80): string {
  let args = "";
  if (call.input && typeof call.input === "object" && !Array.isArray(call.input)) {
    args = Object.values(call.input as Record<string, unknown>)
      .filter((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")
      .map((v) => String(v).split("\n")[0])
      .join(" ");
  } else if (typeof call.input === "string") {
    args = call.input.split("\n")[0] ?? "";
  }
  const text = args ? `${call.name} ${args}` : call.name;
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
