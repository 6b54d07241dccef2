/**
 * Screenshots reach the model: the neutral ImagePart goes out as each provider's image block, checked
 * on the wire against a loopback server, as the other adapter tests do.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ImagePart } from "../messages/index.js";
import { HANG_GUARD_MS } from "../testing/time.js";
import { AnthropicPolicy } from "./anthropic.js";
import { OpenAIPolicy } from "./openai.js";
import { ANTHROPIC_TEST_MODEL, anthropicStream } from "./testing/anthropic-wire.js";
import { LoopbackServer } from "./testing/loopback.js";
import { OPENAI_TEST_MODEL, openaiStream } from "./testing/openai-wire.js";
import type { PolicyRequest } from "./types.js";

// A real 1×1 PNG, so a server that decoded it would succeed.
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const image = (ref: string): ImagePart => ({
  type: "image",
  mediaType: "image/png",
  data: PIXEL,
  width: 1,
  height: 1,
  ref,
});

const CLICK = {
  name: "click",
  description: "Click.",
  inputSchema: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } } },
};

const REQUEST: PolicyRequest = {
  system: "You control a browser.",
  memory: "",
  tools: [CLICK],
  messages: [
    { role: "user", content: "Open settings.", images: [image("step-000.png")] },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "click", input: { x: 10, y: 20 } }],
    },
    { role: "tool", toolCallId: "call_1", content: "clicked (10, 20)", images: [image("step-001.png")] },
  ],
  maxOutputTokens: 256,
};

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(response: Parameters<typeof LoopbackServer.start>[0]): Promise<LoopbackServer> {
  const server = await LoopbackServer.start(response);
  servers.push(server);
  return server;
}

const BASE64_IMAGE = { type: "base64", media_type: "image/png", data: PIXEL };

describe("images through the Anthropic adapter", () => {
  it("sends the task screenshot as a user image block and the next one inside the tool_result", async () => {
    const server = await serve([anthropicStream({ blocks: [{ text: "ok" }] })]);
    const policy = new AnthropicPolicy({
      model: ANTHROPIC_TEST_MODEL,
      apiKey: "sk-ant-test",
      baseURL: server.url,
      maxRetries: 0,
      timeoutMs: HANG_GUARD_MS,
    });
    await policy.next(REQUEST);
    const body = server.requests[0]?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Open settings." },
          { type: "image", source: BASE64_IMAGE },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "call_1", name: "click", input: { x: 10, y: 20 } }],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_1",
            content: [
              { type: "text", text: "clicked (10, 20)" },
              { type: "image", source: BASE64_IMAGE },
            ],
            // The newest block carries the turn's cache breakpoint, images or not.
            cache_control: { type: "ephemeral" },
          },
        ],
      },
    ]);
  });

  it("puts the cache breakpoint on an image when it is the newest block", async () => {
    const server = await serve([anthropicStream({ blocks: [{ text: "ok" }] })]);
    const policy = new AnthropicPolicy({
      model: ANTHROPIC_TEST_MODEL,
      apiKey: "sk-ant-test",
      baseURL: server.url,
      maxRetries: 0,
      timeoutMs: HANG_GUARD_MS,
    });
    await policy.next({ ...REQUEST, messages: REQUEST.messages.slice(0, 1) });
    const body = server.requests[0]?.body as { messages: Array<{ content: unknown[] }> };
    expect(body.messages[0]?.content.at(-1)).toEqual({
      type: "image",
      source: BASE64_IMAGE,
      cache_control: { type: "ephemeral" },
    });
  });

  it("refuses an image stripped for storage instead of sending an empty one", async () => {
    const server = await serve([anthropicStream({ blocks: [{ text: "ok" }] })]);
    const policy = new AnthropicPolicy({
      model: ANTHROPIC_TEST_MODEL,
      apiKey: "sk-ant-test",
      baseURL: server.url,
      maxRetries: 0,
      timeoutMs: HANG_GUARD_MS,
    });
    const stripped = { ...image("frames/step-000.png"), data: "" };
    await expect(async () =>
      policy.next({ ...REQUEST, messages: [{ role: "user", content: "go", images: [stripped] }] }),
    ).rejects.toThrow(/frames\/step-000.png has no data/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("images through the OpenAI adapter", () => {
  it("sends data-URL image parts; a tool result's screenshot follows the tool messages as a user turn", async () => {
    const server = await serve([
      openaiStream({ text: "ok", usage: { prompt_tokens: 9, completion_tokens: 1 } }),
    ]);
    const policy = new OpenAIPolicy({
      model: OPENAI_TEST_MODEL,
      apiKey: "sk-openai-test",
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      timeoutMs: HANG_GUARD_MS,
    });
    await policy.next(REQUEST);
    const body = server.requests[0]?.body as { messages: unknown[] };
    const dataUrl = { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } };
    expect(body.messages).toEqual([
      { role: "system", content: "You control a browser." },
      { role: "user", content: [{ type: "text", text: "Open settings." }, dataUrl] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "click", arguments: '{"x":10,"y":20}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "clicked (10, 20)" },
      { role: "user", content: [{ type: "text", text: "Screen after call call_1:" }, dataUrl] },
    ]);
  });

  it("answers every call of a turn before the screenshots, so two tool results stay adjacent", async () => {
    const server = await serve([
      openaiStream({ text: "ok", usage: { prompt_tokens: 9, completion_tokens: 1 } }),
    ]);
    const policy = new OpenAIPolicy({
      model: OPENAI_TEST_MODEL,
      apiKey: "sk-openai-test",
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      timeoutMs: HANG_GUARD_MS,
    });
    await policy.next({
      ...REQUEST,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "a", name: "click", input: { x: 1, y: 1 } },
            { id: "b", name: "click", input: { x: 2, y: 2 } },
          ],
        },
        { role: "tool", toolCallId: "a", content: "ok", images: [image("1.png")] },
        { role: "tool", toolCallId: "b", content: "ok", images: [image("2.png")] },
      ],
    });
    const body = server.requests[0]?.body as { messages: Array<{ role: string }> } | undefined;
    const roles = body?.messages.map((m) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
  });
});
