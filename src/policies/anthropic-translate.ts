/**
 * Pure translation between the neutral conversation and the Anthropic Messages wire format. No I/O, so
 * the cache layout and the stream accumulation can be tested without a server.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ImagePart, Message, ToolCall, Usage } from "../messages/index.js";
import { parseToolCall } from "./tool-input.js";
import type { PolicyReply, PolicyRequest } from "./types.js";

type ContentBlock = Anthropic.ContentBlockParam;
type Role = "user" | "assistant";

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: "ephemeral" };

export function toAnthropicRequest(
  request: PolicyRequest,
  model: string,
): Anthropic.MessageCreateParamsStreaming {
  const tools: Anthropic.Tool[] = request.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: "object" },
  }));
  // The API rejects empty text blocks, so an empty prompt or memory is left out rather than sent blank.
  const system: Anthropic.TextBlockParam[] = [request.system, request.memory]
    .filter((text) => text !== "")
    .map((text) => ({ type: "text", text }));

  // The cache prefix is tools → system → messages. One breakpoint on the last stable block caches tools,
  // prompt and memory together; a second on the newest block lets each turn reuse the turn before.
  const lastSystem = system.at(-1);
  const lastTool = tools.at(-1);
  if (lastSystem) lastSystem.cache_control = EPHEMERAL;
  else if (lastTool) lastTool.cache_control = EPHEMERAL;

  const messages = toAnthropicMessages(request.messages);
  const lastMessage = messages.at(-1);
  if (lastMessage && Array.isArray(lastMessage.content)) {
    const blocks = lastMessage.content;
    const last = blocks.at(-1);
    if (last) blocks[blocks.length - 1] = withCacheControl(last);
  }

  return {
    model,
    max_tokens: request.maxOutputTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(system.length > 0 ? { system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    messages,
    stream: true,
  };
}

function withCacheControl(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case "text":
    case "tool_use":
    case "tool_result":
    case "image":
      return { ...block, cache_control: EPHEMERAL };
    default:
      return block;
  }
}

/**
 * The API wants user and assistant turns to alternate and every tool_result to answer the turn before,
 * so consecutive tool messages (and any user text next to them) fold into one user turn.
 */
export function toAnthropicMessages(messages: readonly Message[]): Anthropic.MessageParam[] {
  const turns: { role: Role; content: ContentBlock[] }[] = [];
  const append = (role: Role, blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      // Mid-conversation system notes (reminders, hook output) have no place after the top-level system
      // prompt, and putting them there would break the cached prefix; they travel as user text instead.
      case "system":
        append("user", textBlocks(message.content));
        break;
      case "user":
        append("user", [...textBlocks(message.content), ...(message.images ?? []).map(toImageBlock)]);
        break;
      case "assistant":
        append("assistant", [...textBlocks(message.content), ...message.toolCalls.map(toToolUse)]);
        break;
      case "tool": {
        // A result with images (a screenshot after a computer-use action) sends text and images as blocks.
        const images = (message.images ?? []).map(toImageBlock);
        const content =
          images.length > 0 ? [...textBlocks(message.content), ...images] : message.content || undefined;
        append("user", [
          {
            type: "tool_result",
            tool_use_id: message.toolCallId,
            ...(content !== undefined ? { content } : {}),
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
      }
    }
  }
  // tool_result blocks must lead their user turn; text that landed before them moves after.
  for (const turn of turns) {
    if (turn.role === "user") {
      turn.content = [
        ...turn.content.filter((b) => b.type === "tool_result"),
        ...turn.content.filter((b) => b.type !== "tool_result"),
      ];
    }
  }
  return turns;
}

function textBlocks(text: string): Anthropic.TextBlockParam[] {
  return text === "" ? [] : [{ type: "text", text }];
}

function toImageBlock(image: ImagePart): Anthropic.ImageBlockParam {
  if (image.data === "") {
    throw new Error(
      `image ${image.ref ?? "(no ref)"} has no data: it was stripped for storage; load it back before sending`,
    );
  }
  return { type: "image", source: { type: "base64", media_type: image.mediaType, data: image.data } };
}

function toToolUse(call: ToolCall): Anthropic.ToolUseBlockParam {
  // A call whose arguments did not parse holds raw text; the API only takes an object, and the error
  // observation that follows already tells the model what it sent.
  const input =
    typeof call.input === "object" && call.input !== null && !Array.isArray(call.input) ? call.input : {};
  return { type: "tool_use", id: call.id, name: call.name, input };
}

type UsageField =
  | "input_tokens"
  | "output_tokens"
  | "cache_read_input_tokens"
  | "cache_creation_input_tokens";

type BlockState =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; json: string; initial: unknown }
  | { type: "ignored" };

/**
 * Builds the reply from raw stream events. The SDK's own accumulator parses tool input leniently — it
 * accepts JSON cut off at max_tokens as if whole, and throws on anything else that is not JSON — so a
 * truncated `bash` command would run as a shorter command. Here input is parsed strictly, and a bad one
 * becomes a `parseError` the loop shows to the model.
 */
export class AnthropicReplyBuilder {
  private blocks: BlockState[] = [];
  private model = "";
  private stopReason = "";
  private started = false;
  private stopped = false;
  private usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  add(event: Anthropic.RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start": {
        this.started = true;
        this.model = event.message.model;
        this.readUsage(event.message.usage);
        break;
      }
      case "content_block_start": {
        const block = event.content_block;
        this.blocks[event.index] =
          block.type === "text"
            ? { type: "text", text: block.text }
            : block.type === "tool_use"
              ? { type: "tool_use", id: block.id, name: block.name, json: "", initial: block.input }
              : { type: "ignored" };
        break;
      }
      case "content_block_delta": {
        const block = this.blocks[event.index];
        if (block?.type === "text" && event.delta.type === "text_delta") block.text += event.delta.text;
        if (block?.type === "tool_use" && event.delta.type === "input_json_delta")
          block.json += event.delta.partial_json;
        break;
      }
      case "message_delta": {
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.readUsage(event.usage);
        break;
      }
      case "message_stop":
        this.stopped = true;
        break;
      default:
        break;
    }
  }

  /**
   * message_start carries the input counts; message_delta carries cumulative totals that replace them.
   * Fields a delta leaves out (older API versions send only output_tokens) keep their earlier value.
   */
  private readUsage(usage: Partial<Record<UsageField, number | null>>): void {
    const read = (field: UsageField, into: Exclude<keyof Usage, "estimated">) => {
      const value = usage[field];
      if (typeof value === "number") this.usage[into] = value;
    };
    read("input_tokens", "inputTokens");
    read("cache_read_input_tokens", "cacheReadTokens");
    read("cache_creation_input_tokens", "cacheWriteTokens");
    read("output_tokens", "outputTokens");
  }

  finish(): PolicyReply {
    if (!this.started) throw new Error("the stream had no message_start event");
    if (!this.stopped) throw new Error("the stream ended before message_stop");
    let content = "";
    const toolCalls: ToolCall[] = [];
    for (const block of this.blocks) {
      if (block?.type === "text") content += block.text;
      if (block?.type === "tool_use") toolCalls.push(this.toToolCall(block));
    }
    return {
      message: { role: "assistant", content, toolCalls },
      usage: { ...this.usage },
      model: this.model,
      finishReason: this.stopReason,
    };
  }

  private toToolCall(block: Extract<BlockState, { type: "tool_use" }>): ToolCall {
    return parseToolCall(block.id, block.name, block.json, this.stopReason, block.initial ?? {});
  }
}
