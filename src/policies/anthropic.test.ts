import { afterEach, describe, expect, it, vi } from "vitest";
import { HANG_GUARD_MS } from "../testing/time.js";
import { AnthropicPolicy, type AnthropicPolicyOptions } from "./anthropic.js";
import {
  ANTHROPIC_TEST_MODEL,
  anthropicError,
  anthropicStream,
  anthropicStreamError,
} from "./testing/anthropic-wire.js";
import { closedPortURL, LoopbackServer, type ScriptedResponse } from "./testing/loopback.js";
import { PolicyError, type PolicyRequest } from "./types.js";

const servers: LoopbackServer[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...responses: ScriptedResponse[]): Promise<LoopbackServer> {
  const server = await LoopbackServer.start(responses);
  servers.push(server);
  return server;
}

function policy(server: LoopbackServer | string, options: Partial<AnthropicPolicyOptions> = {}) {
  const baseURL = typeof server === "string" ? server : server.url;
  return new AnthropicPolicy({
    model: ANTHROPIC_TEST_MODEL,
    apiKey: "sk-ant-test",
    baseURL,
    retryBaseDelayMs: 1,
    maxRetries: 2,
    timeoutMs: HANG_GUARD_MS,
    ...options,
  });
}

const TOOLS = [
  {
    name: "bash",
    description: "Run a shell command.",
    inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
  {
    name: "read",
    description: "Read a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

const REQUEST: PolicyRequest = {
  system: "You are a careful engineer.",
  memory: "Run the tests with npm test.",
  tools: TOOLS,
  messages: [
    { role: "user", content: "Fix the failing test." },
    {
      role: "assistant",
      content: "Let me look around.",
      toolCalls: [
        { id: "toolu_1", name: "bash", input: { command: "ls" } },
        { id: "toolu_2", name: "read", input: { path: "a.ts" } },
      ],
    },
    { role: "tool", toolCallId: "toolu_1", content: "a.ts b.ts" },
    { role: "tool", toolCallId: "toolu_2", content: "ENOENT: no such file", isError: true },
    { role: "user", content: "Please hurry." },
  ],
  maxOutputTokens: 1024,
};

const OK = anthropicStream({ blocks: [{ text: "Done." }] });

/** Every place in a JSON value that carries a cache_control key, as a path like "system[1]". */
function cachePaths(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => cachePaths(item, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "cache_control" ? [path] : cachePaths(inner, path ? `${path}.${key}` : key),
  );
}

describe("AnthropicPolicy request on the wire", () => {
  it("sends tools, system blocks, alternating turns and grouped tool results", async () => {
    const server = await serve(OK);
    await policy(server).next(REQUEST);

    const [req] = server.requests;
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/v1/messages");
    expect(req?.headers.authorization).toBe("Bearer sk-ant-test");
    expect(req?.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(req?.headers["x-stainless-retry-count"]).toBe("0");
    expect(req?.body).toEqual({
      model: ANTHROPIC_TEST_MODEL,
      max_tokens: 1024,
      stream: true,
      tools: [
        { name: "bash", description: "Run a shell command.", input_schema: TOOLS[0]?.inputSchema },
        { name: "read", description: "Read a file.", input_schema: TOOLS[1]?.inputSchema },
      ],
      system: [
        { type: "text", text: "You are a careful engineer." },
        { type: "text", text: "Run the tests with npm test.", cache_control: { type: "ephemeral" } },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "Fix the failing test." }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me look around." },
            { type: "tool_use", id: "toolu_1", name: "bash", input: { command: "ls" } },
            { type: "tool_use", id: "toolu_2", name: "read", input: { path: "a.ts" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "a.ts b.ts" },
            { type: "tool_result", tool_use_id: "toolu_2", content: "ENOENT: no such file", is_error: true },
            { type: "text", text: "Please hurry.", cache_control: { type: "ephemeral" } },
          ],
        },
      ],
    });
  });

  it("sends a temperature only when the request sets one", async () => {
    const server = await serve(OK, OK);
    await policy(server).next({ ...REQUEST, temperature: 0 });
    await policy(server).next(REQUEST);
    expect((server.requests[0]?.body as Record<string, unknown> | undefined)?.temperature).toBe(0);
    expect(server.requests[1]?.body).not.toHaveProperty("temperature");
  });

  it("puts exactly two cache breakpoints: the last stable block and the newest message block", async () => {
    const server = await serve(OK, OK, OK);
    await policy(server).next(REQUEST);
    await policy(server).next({ ...REQUEST, memory: "" });
    await policy(server).next({ ...REQUEST, system: "", memory: "", messages: REQUEST.messages.slice(0, 4) });

    const paths = server.requests.map((r) => cachePaths(r.body));
    expect(paths[0]).toEqual(["system[1]", "messages[2].content[2]"]);
    // No memory: the prompt is the last stable block, and no empty block is sent for the memory.
    expect(paths[1]).toEqual(["system[0]", "messages[2].content[2]"]);
    expect(server.requests[1]?.body).toHaveProperty("system", [
      { type: "text", text: "You are a careful engineer.", cache_control: { type: "ephemeral" } },
    ]);
    // No system text at all: the tools are the whole stable prefix.
    expect(paths[2]).toEqual(["tools[1]", "messages[2].content[1]"]);
    expect(server.requests[2]?.body).not.toHaveProperty("system");
  });
});

describe("AnthropicPolicy reply parsing", () => {
  it("joins streamed text and tool input split across several input_json_delta events", async () => {
    const server = await serve(
      anthropicStream({
        blocks: [
          { text: "I will run the tests now." },
          { toolUse: { id: "toolu_9", name: "bash", json: '{"command": "npm test -- --run"}' } },
          { toolUse: { id: "toolu_10", name: "read", json: '{"path": "src/a.ts"}' } },
        ],
        jsonPieces: 4,
        stopReason: "tool_use",
        usage: {
          input_tokens: 120,
          output_tokens: 42,
          cache_read_input_tokens: 900,
          cache_creation_input_tokens: 300,
        },
      }),
    );
    const reply = await policy(server).next(REQUEST);

    expect(reply.message).toEqual({
      role: "assistant",
      content: "I will run the tests now.",
      toolCalls: [
        { id: "toolu_9", name: "bash", input: { command: "npm test -- --run" } },
        { id: "toolu_10", name: "read", input: { path: "src/a.ts" } },
      ],
    });
    expect(reply.usage).toEqual({
      inputTokens: 120,
      outputTokens: 42,
      cacheReadTokens: 900,
      cacheWriteTokens: 300,
    });
    expect(reply.finishReason).toBe("tool_use");
    expect(reply.model).toBe(ANTHROPIC_TEST_MODEL);
  });

  it("returns malformed tool input as a parseError instead of throwing", async () => {
    const server = await serve(
      anthropicStream({
        blocks: [{ toolUse: { id: "toolu_bad", name: "bash", json: '{"command": ls -la}' } }],
        stopReason: "tool_use",
      }),
    );
    const reply = await policy(server).next(REQUEST);
    const [call] = reply.message.toolCalls;
    expect(call?.input).toBe('{"command": ls -la}');
    expect(call?.parseError).toMatch(/not valid JSON/);
  });

  it("flags tool input cut off at max_tokens rather than running a truncated command", async () => {
    const server = await serve(
      anthropicStream({
        blocks: [{ toolUse: { id: "toolu_cut", name: "bash", json: '{"command": "rm -rf build && npm' } }],
        stopReason: "max_tokens",
      }),
    );
    const [call] = (await policy(server).next(REQUEST)).message.toolCalls;
    expect(call?.input).toBe('{"command": "rm -rf build && npm');
    expect(call?.parseError).toMatch(/cut off at the output token limit/);
  });
});

describe("AnthropicPolicy failures", () => {
  it("fails at once on 401 with a message that says which variable to set", async () => {
    const server = await serve(anthropicError(401, "authentication_error", "invalid x-api-key"));
    const error = await policy(server)
      .next(REQUEST)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PolicyError);
    expect(error).toMatchObject({ kind: "auth", status: 401 });
    expect((error as Error).message).toBe(
      "anthropic: 401 authentication_error (invalid x-api-key) — the API key was rejected; " +
        "set ANTHROPIC_API_KEY to a valid key",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a 400", async () => {
    const server = await serve(anthropicError(400, "invalid_request_error", "prompt is too long"));
    await expect(policy(server).next(REQUEST)).rejects.toMatchObject({ kind: "bad_request", status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it("waits out retry-after on 429 and then succeeds", async () => {
    const server = await serve(
      anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your rate limit", {
        "retry-after-ms": "150",
        "retry-after": "1",
      }),
      OK,
    );
    const started = Date.now();
    const reply = await policy(server).next(REQUEST);

    expect(reply.message.content).toBe("Done.");
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.requests[1]?.body).toEqual(server.requests[0]?.body);
  });

  it("gives up on repeated 500s after maxRetries + 1 requests", async () => {
    const fail = anthropicError(500, "api_error", "Internal server error");
    const server = await serve(fail, fail, fail, fail);
    const error = await policy(server, { maxRetries: 2 })
      .next(REQUEST)
      .catch((e: unknown) => e);

    expect(error).toMatchObject({ kind: "server", status: 500 });
    expect((error as Error).message).toMatch(
      /^anthropic: 500 api_error \(Internal server error\) after 3 attempts — /,
    );
    expect(server.requests).toHaveLength(3);
  });

  it("retries 529 overloaded and reports kind overloaded when it persists", async () => {
    const busy = anthropicError(529, "overloaded_error", "Overloaded");
    const server = await serve(busy, busy);
    await expect(policy(server, { maxRetries: 1 }).next(REQUEST)).rejects.toMatchObject({
      kind: "overloaded",
      status: 529,
    });
    expect(server.requests).toHaveLength(2);
  });

  it("retries an overloaded error event that arrives mid-stream", async () => {
    const server = await serve(anthropicStreamError("overloaded_error", "Overloaded"), OK);
    const reply = await policy(server).next(REQUEST);
    expect(reply.message.content).toBe("Done.");
    expect(server.requests).toHaveLength(2);
  });

  it("retries a dropped connection", async () => {
    const server = await serve({ kind: "drop" }, OK);
    const reply = await policy(server).next(REQUEST);
    expect(reply.message.content).toBe("Done.");
    expect(server.requests).toHaveLength(2);
  });

  it("retries a connection that breaks mid-stream", async () => {
    const broken = anthropicStream({ blocks: [{ text: "Half an answer and then" }] });
    const server = await serve(broken.kind === "sse" ? { ...broken, dropAfter: 3 } : broken, OK);
    const reply = await policy(server).next(REQUEST);
    expect(reply.message.content).toBe("Done.");
    expect(server.requests).toHaveLength(2);
  });

  it("times out on a server that never answers", async () => {
    const server = await serve({ kind: "hang" });
    // Short, but long enough for the request to reach the server on a slow machine before it fires.
    const error = await policy(server, { timeoutMs: 1_000, maxRetries: 0 })
      .next(REQUEST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
    expect((error as Error).message).toMatch(/no response from http:\/\/127\.0\.0\.1:\d+ for 1000 ms/);
    expect(server.requests).toHaveLength(1);
  });

  it("times out on a stream that stops sending, then retries", async () => {
    const stalled = anthropicStream({ blocks: [{ text: "Half an answer and then" }] });
    const server = await serve(stalled.kind === "sse" ? { ...stalled, stallAfter: 3 } : stalled, OK);
    // Long enough that the healthy second answer is never cut off on a busy machine.
    const reply = await policy(server, { timeoutMs: 1_000 }).next(REQUEST);
    expect(reply.message.content).toBe("Done.");
    expect(server.requests).toHaveLength(2);
  });

  it("reports a refused connection as a network error", async () => {
    const url = await closedPortURL();
    const error = await policy(url, { maxRetries: 1 })
      .next(REQUEST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "network" });
    expect((error as Error).message).toBe(
      `anthropic: could not connect to ${url} (ECONNREFUSED) after 2 attempts — is the server running?`,
    );
  });

  it("stops when the caller aborts, without retrying", async () => {
    const server = await serve({ kind: "hang" }, OK);
    const controller = new AbortController();
    const pending = policy(server).next(REQUEST, controller.signal);
    await server.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(server.requests).toHaveLength(1);
  });
});

describe("AnthropicPolicy configuration", () => {
  it("reads the key and base URL from the environment", async () => {
    const server = await serve(OK);
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-from-env");
    vi.stubEnv("ANTHROPIC_BASE_URL", server.url);
    const fromEnv = new AnthropicPolicy({ model: ANTHROPIC_TEST_MODEL });
    await fromEnv.next(REQUEST);

    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-ant-from-env");
    expect(fromEnv.spec).toBe(`anthropic:${ANTHROPIC_TEST_MODEL}`);
    expect(fromEnv.model).toBe(ANTHROPIC_TEST_MODEL);
  });

  it("refuses to start without a key and says how to give one", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    expect(() => new AnthropicPolicy({ model: ANTHROPIC_TEST_MODEL })).toThrow(
      /anthropic: no API key .* set ANTHROPIC_API_KEY or pass apiKey/,
    );
  });
});
