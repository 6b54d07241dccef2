import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import type { Message } from "../messages/index.js";
import { AnthropicReplyBuilder, toAnthropicMessages } from "./anthropic-translate.js";

describe("toAnthropicMessages", () => {
  it("keeps turns alternating: adjacent user text, system notes and tool results share one user turn", () => {
    const messages: Message[] = [
      { role: "user", content: "Fix it." },
      { role: "system", content: "You have 3 steps left." },
      { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "bash", input: { command: "ls" } }] },
      { role: "user", content: "Also check the docs." },
      { role: "tool", toolCallId: "t1", content: "" },
    ];
    expect(toAnthropicMessages(messages)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Fix it." },
          { type: "text", text: "You have 3 steps left." },
        ],
      },
      // An empty thought sends no text block: the API rejects empty text.
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } }],
      },
      // The tool result must lead its turn, even though the user's text came first.
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1" },
          { type: "text", text: "Also check the docs." },
        ],
      },
    ]);
  });

  it("sends an empty object for a call whose arguments never parsed", () => {
    const [, assistant] = toAnthropicMessages([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "t1", name: "bash", input: "{bad", parseError: "x" }],
      },
    ]);
    expect(assistant?.content).toEqual([{ type: "tool_use", id: "t1", name: "bash", input: {} }]);
  });

  it("drops an assistant turn with nothing in it rather than sending it empty", () => {
    const turns = toAnthropicMessages([
      { role: "user", content: "a" },
      { role: "assistant", content: "", toolCalls: [] },
      { role: "user", content: "b" },
    ]);
    expect(turns).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
  });
});

describe("AnthropicReplyBuilder", () => {
  const start = {
    type: "message_start",
    message: {
      id: "m",
      type: "message",
      role: "assistant",
      model: "claude-x",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 7,
        output_tokens: 1,
        cache_read_input_tokens: null,
        cache_creation_input_tokens: null,
      },
    },
  } as unknown as Anthropic.RawMessageStreamEvent;

  it("refuses a stream that ended before message_stop", () => {
    const builder = new AnthropicReplyBuilder();
    builder.add(start);
    expect(() => builder.finish()).toThrow(/ended before message_stop/);
  });

  it("lets message_delta's cumulative counts replace the ones from message_start", () => {
    const builder = new AnthropicReplyBuilder();
    builder.add(start);
    builder.add({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { input_tokens: 9, output_tokens: 30, cache_read_input_tokens: 4 },
    } as unknown as Anthropic.RawMessageStreamEvent);
    builder.add({ type: "message_stop" });
    expect(builder.finish().usage).toEqual({
      inputTokens: 9,
      outputTokens: 30,
      cacheReadTokens: 4,
      cacheWriteTokens: 0,
    });
  });
});
