/**
 * Pure translation between the neutral conversation and the Chat Completions wire format, for OpenAI and
 * for the servers that imitate it (vLLM, llama.cpp, Ollama, LM Studio), which differ in small ways.
 */
import type OpenAI from "openai";
import {
  estimateTokens,
  type ImagePart,
  type Message,
  type ToolCall,
  type Usage,
} from "../messages/index.js";
import { parseToolCall } from "./tool-input.js";
import type { PolicyReply, PolicyRequest } from "./types.js";

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

export function toOpenAIRequest(
  request: PolicyRequest,
  model: string,
  compatible: boolean,
): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  // One leading system message holding the stable prefix: OpenAI caches by prefix, and many local chat
  // templates accept a single system message only, at the start.
  const preamble = [request.system, request.memory].filter((text) => text !== "").join("\n\n");
  const messages: ChatMessage[] = preamble ? [{ role: "system", content: preamble }] : [];
  messages.push(...toOpenAIMessages(request.messages, compatible));
  const tools: OpenAI.Chat.ChatCompletionTool[] = request.tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
  return {
    model,
    messages,
    // Some local servers reject an empty tools array, so none is sent when there are no tools.
    ...(tools.length > 0 ? { tools } : {}),
    // OpenAI's reasoning models refuse max_tokens; most local servers know only max_tokens.
    ...(compatible
      ? { max_tokens: request.maxOutputTokens }
      : { max_completion_tokens: request.maxOutputTokens }),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/**
 * Chat Completions tool messages carry text only, and every call of an assistant turn must be answered
 * before anything else, so the images of a run of tool results follow it as one user message.
 */
export function toOpenAIMessages(messages: readonly Message[], compatible: boolean): ChatMessage[] {
  const out: ChatMessage[] = [];
  let pending: OpenAI.Chat.ChatCompletionContentPart[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: "user", content: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== "tool") flush();
    out.push(toOpenAIMessage(message, compatible));
    if (message.role === "tool" && message.images?.length) {
      pending.push({ type: "text", text: `Screen after call ${message.toolCallId}:` });
      pending.push(...message.images.map(toImagePart));
    }
  }
  flush();
  return out;
}

function toImagePart(image: ImagePart): OpenAI.Chat.ChatCompletionContentPartImage {
  if (image.data === "") {
    throw new Error(
      `image ${image.ref ?? "(no ref)"} has no data: it was stripped for storage; load it back before sending`,
    );
  }
  return { type: "image_url", image_url: { url: `data:${image.mediaType};base64,${image.data}` } };
}

function toOpenAIMessage(message: Message, compatible: boolean): ChatMessage {
  switch (message.role) {
    case "system":
      // Local chat templates often raise on a system message after the first; a user turn always fits.
      return compatible
        ? { role: "user", content: message.content }
        : { role: "system", content: message.content };
    case "user":
      if (!message.images?.length) return { role: "user", content: message.content };
      return {
        role: "user",
        content: [
          ...(message.content !== "" ? [{ type: "text" as const, text: message.content }] : []),
          ...message.images.map(toImagePart),
        ],
      };
    case "assistant":
      if (message.toolCalls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: argumentsText(call) },
        })),
      };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

/** A call that failed to parse is sent back as the model wrote it, so its own history stays true. */
function argumentsText(call: ToolCall): string {
  return call.parseError !== undefined && typeof call.input === "string"
    ? call.input
    : JSON.stringify(call.input);
}

interface CallState {
  id: string;
  name: string;
  args: string;
}

/** Accumulates streamed chunks; tool-call fragments are joined by `index`, as the protocol numbers them. */
export class OpenAIReplyBuilder {
  private content = "";
  private calls: CallState[] = [];
  private model = "";
  private finishReason = "";
  private chunks = 0;
  private reported: OpenAI.CompletionUsage | undefined;

  add(chunk: OpenAI.Chat.ChatCompletionChunk): void {
    this.chunks++;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.reported = chunk.usage;
    // n is never set above 1, so only the first choice is ours.
    const choice = chunk.choices.find((c) => c.index === 0) ?? chunk.choices[0];
    if (!choice) return;
    if (choice.delta.content) this.content += choice.delta.content;
    for (const fragment of choice.delta.tool_calls ?? []) this.addFragment(fragment);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  private addFragment(fragment: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall): void {
    // A few servers leave out `index`; then the id (when given) says whether a new call begins.
    let index: number | undefined = typeof fragment.index === "number" ? fragment.index : undefined;
    if (index === undefined) {
      const byId = fragment.id ? this.calls.findIndex((c) => c.id === fragment.id) : -1;
      index =
        byId >= 0 ? byId : fragment.id || this.calls.length === 0 ? this.calls.length : this.calls.length - 1;
    }
    const call = this.calls[index] ?? { id: "", name: "", args: "" };
    this.calls[index] = call;
    // Some servers repeat id and name on every fragment; they are set, never appended.
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.name = fragment.function.name;
    if (fragment.function?.arguments) call.args += fragment.function.arguments;
  }

  /** `promptText` is what was sent, for the estimate a server that reports no usage leaves us to make. */
  finish(promptText: string): PolicyReply {
    if (this.chunks === 0) throw new Error("the stream ended without a single chunk");
    const toolCalls = this.calls
      .filter((call): call is CallState => call !== undefined)
      .map((call, i) => this.toToolCall(call, i));
    return {
      message: { role: "assistant", content: this.content, toolCalls },
      usage: this.reported ? fromReported(this.reported) : this.estimate(promptText),
      model: this.model,
      finishReason: this.finishReason,
    };
  }

  private toToolCall(call: CallState, position: number): ToolCall {
    // Some compatible servers send calls without ids; the loop needs one to pair each result with its call.
    const id = call.id || `call_acilab_${position}`;
    return parseToolCall(id, call.name, call.args, this.finishReason);
  }

  private estimate(promptText: string): Usage {
    const output = this.content + this.calls.map((c) => c.name + c.args).join("");
    return {
      inputTokens: estimateTokens(promptText),
      outputTokens: estimateTokens(output),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      estimated: true,
    };
  }
}

/** prompt_tokens counts cached tokens too; they are split out so each count is billed at one price. */
export function fromReported(usage: OpenAI.CompletionUsage): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: usage.prompt_tokens - cached,
    outputTokens: usage.completion_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
