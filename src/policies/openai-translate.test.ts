import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { OpenAIReplyBuilder } from "./openai-translate.js";

function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
): OpenAI.Chat.ChatCompletionChunk {
  return {
    id: "c",
    object: "chat.completion.chunk",
    created: 0,
    model: "local-model",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  } as OpenAI.Chat.ChatCompletionChunk;
}

describe("OpenAIReplyBuilder with loosely compatible servers", () => {
  it("joins fragments that repeat id and name, and names calls that came without an id", () => {
    const builder = new OpenAIReplyBuilder();
    builder.add(
      chunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "bash", arguments: '{"com' } }] }),
    );
    builder.add(
      chunk({
        tool_calls: [{ index: 0, id: "call_1", function: { name: "bash", arguments: 'mand":"ls"}' } }],
      }),
    );
    builder.add(chunk({ tool_calls: [{ index: 1, function: { name: "read", arguments: '{"path":"a"}' } }] }));
    builder.add(chunk({}, "tool_calls"));
    expect(builder.finish("").message.toolCalls).toEqual([
      { id: "call_1", name: "bash", input: { command: "ls" } },
      { id: "call_acilab_1", name: "read", input: { path: "a" } },
    ]);
  });

  it("tells calls apart by id when a server leaves out index", () => {
    const builder = new OpenAIReplyBuilder();
    builder.add(chunk({ tool_calls: [{ id: "a", function: { name: "bash", arguments: '{"command":' } }] }));
    builder.add(chunk({ tool_calls: [{ function: { arguments: '"ls"}' } }] }));
    builder.add(
      chunk({ tool_calls: [{ id: "b", function: { name: "bash", arguments: '{"command":"pwd"}' } }] }),
    );
    expect(builder.finish("").message.toolCalls.map((c) => c.input)).toEqual([
      { command: "ls" },
      { command: "pwd" },
    ]);
  });

  it("marks arguments cut off by the length limit", () => {
    const builder = new OpenAIReplyBuilder();
    builder.add(
      chunk({ tool_calls: [{ index: 0, id: "c", function: { name: "bash", arguments: '{"command":"ec' } }] }),
    );
    builder.add(chunk({}, "length"));
    expect(builder.finish("").message.toolCalls[0]?.parseError).toMatch(/cut off at the output token limit/);
  });

  it("refuses a stream with no chunks at all", () => {
    expect(() => new OpenAIReplyBuilder().finish("")).toThrow(/without a single chunk/);
  });
});
