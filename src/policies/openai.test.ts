import { afterEach, describe, expect, it, vi } from "vitest";
import { HANG_GUARD_MS } from "../testing/time.js";
import { OpenAIPolicy, type OpenAIPolicyOptions } from "./openai.js";
import { closedPortURL, LoopbackServer, type ScriptedResponse } from "./testing/loopback.js";
import { OPENAI_TEST_MODEL, openaiError, openaiStream } from "./testing/openai-wire.js";
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

function policy(server: LoopbackServer | string, options: Partial<OpenAIPolicyOptions> = {}) {
  const root = typeof server === "string" ? server : server.url;
  return new OpenAIPolicy({
    model: OPENAI_TEST_MODEL,
    apiKey: "sk-openai-test",
    baseURL: `${root}/v1`,
    retryBaseDelayMs: 1,
    maxRetries: 2,
    timeoutMs: HANG_GUARD_MS,
    ...options,
  });
}

const BASH = {
  name: "bash",
  description: "Run a shell command.",
  inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

const REQUEST: PolicyRequest = {
  system: "You are a careful engineer.",
  memory: "Run the tests with npm test.",
  tools: [BASH],
  messages: [
    { role: "user", content: "Fix the failing test." },
    {
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "call_1", name: "bash", input: { command: "ls" } },
        { id: "call_2", name: "bash", input: "{oops", parseError: "not valid JSON" },
      ],
    },
    { role: "tool", toolCallId: "call_1", content: "a.ts b.ts" },
    { role: "tool", toolCallId: "call_2", content: "the arguments were not JSON", isError: true },
    { role: "system", content: "Reminder: 3 steps left." },
  ],
  maxOutputTokens: 2048,
};

const OK = openaiStream({ text: "Done.", usage: { prompt_tokens: 50, completion_tokens: 2 } });

describe("OpenAIPolicy request on the wire", () => {
  it("streams with usage, sends function tools and one stable system message first", async () => {
    const server = await serve(OK);
    await policy(server).next(REQUEST);

    const [req] = server.requests;
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/v1/chat/completions");
    expect(req?.headers.authorization).toBe("Bearer sk-openai-test");
    expect(req?.headers["x-stainless-retry-count"]).toBe("0");
    expect(req?.body).toEqual({
      model: OPENAI_TEST_MODEL,
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 2048,
      tools: [
        {
          type: "function",
          function: { name: "bash", description: "Run a shell command.", parameters: BASH.inputSchema },
        },
      ],
      messages: [
        { role: "system", content: "You are a careful engineer.\n\nRun the tests with npm test." },
        { role: "user", content: "Fix the failing test." },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
            // A call that did not parse goes back exactly as the model wrote it.
            { id: "call_2", type: "function", function: { name: "bash", arguments: "{oops" } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "a.ts b.ts" },
        { role: "tool", tool_call_id: "call_2", content: "the arguments were not JSON" },
        { role: "system", content: "Reminder: 3 steps left." },
      ],
    });
  });

  it("speaks the common dialect to a compatible server: max_tokens, a placeholder key, user reminders", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const server = await serve(OK);
    await policy(server, { compatible: true, apiKey: undefined }).next({ ...REQUEST, tools: [] });

    const [req] = server.requests;
    expect(req?.headers.authorization).toBe("Bearer not-needed");
    const body = req?.body as Record<string, unknown>;
    expect(body.max_tokens).toBe(2048);
    expect(body).not.toHaveProperty("max_completion_tokens");
    expect(body).not.toHaveProperty("tools");
    expect((body.messages as unknown[]).at(-1)).toEqual({ role: "user", content: "Reminder: 3 steps left." });
  });

  it("sends a temperature only when the request sets one", async () => {
    const server = await serve(OK, OK);
    await policy(server).next({ ...REQUEST, temperature: 0.8 });
    await policy(server).next(REQUEST);
    expect((server.requests[0]?.body as Record<string, unknown> | undefined)?.temperature).toBe(0.8);
    expect(server.requests[1]?.body).not.toHaveProperty("temperature");
  });

  it("uses OPENAI_API_KEY for a compatible server when it is set", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-local");
    const server = await serve(OK);
    const local = policy(server, { compatible: true, apiKey: undefined });
    await local.next(REQUEST);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-local");
    expect(local.spec).toBe(`openai-compatible:${OPENAI_TEST_MODEL}`);
  });
});

describe("OpenAIPolicy reply parsing", () => {
  it("joins text and tool-call arguments streamed in pieces, by index, even interleaved", async () => {
    const server = await serve(
      openaiStream({
        text: "Running both checks.",
        toolCalls: [
          { id: "call_a", name: "bash", arguments: '{"command": "npm test"}' },
          { id: "call_b", name: "bash", arguments: '{"command": "npm run lint"}' },
        ],
        argumentPieces: 4,
        interleave: true,
        usage: { prompt_tokens: 1000, completion_tokens: 60, cached_tokens: 800 },
      }),
    );
    const reply = await policy(server).next(REQUEST);

    expect(reply.message).toEqual({
      role: "assistant",
      content: "Running both checks.",
      toolCalls: [
        { id: "call_a", name: "bash", input: { command: "npm test" } },
        { id: "call_b", name: "bash", input: { command: "npm run lint" } },
      ],
    });
    // prompt_tokens includes the cached ones; each count is billed at one price.
    expect(reply.usage).toEqual({
      inputTokens: 200,
      outputTokens: 60,
      cacheReadTokens: 800,
      cacheWriteTokens: 0,
    });
    expect(reply.finishReason).toBe("tool_calls");
    expect(reply.model).toBe(OPENAI_TEST_MODEL);
  });

  it("returns arguments that are not JSON as a parseError instead of throwing", async () => {
    const server = await serve(
      openaiStream({ toolCalls: [{ id: "call_x", name: "bash", arguments: "{'command': 'ls'}" }] }),
    );
    const [call] = (await policy(server).next(REQUEST)).message.toolCalls;
    expect(call?.input).toBe("{'command': 'ls'}");
    expect(call?.parseError).toMatch(/not valid JSON/);
  });

  it("estimates usage when a compatible server reports none", async () => {
    const server = await serve(openaiStream({ text: "Hello there, friend.", usage: null }));
    const reply = await policy(server, { compatible: true }).next(REQUEST);

    expect(reply.usage.estimated).toBe(true);
    expect(reply.usage.inputTokens).toBeGreaterThan(50);
    expect(reply.usage.outputTokens).toBe(5);
    expect(reply.usage.cacheReadTokens).toBe(0);
  });
});

describe("OpenAIPolicy failures", () => {
  it("fails at once on 401 and names the variable to set", async () => {
    const server = await serve(
      openaiError(
        401,
        "Incorrect API key provided: sk-opena***test.",
        "invalid_request_error",
        "invalid_api_key",
      ),
    );
    const error = await policy(server)
      .next(REQUEST)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PolicyError);
    expect(error).toMatchObject({ kind: "auth", status: 401 });
    expect((error as Error).message).toMatch(
      /^openai: 401 invalid_request_error \(Incorrect API key provided: .*\) — the API key was rejected; set OPENAI_API_KEY to a valid key$/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [403, "auth"],
    [404, "bad_request"],
    [422, "bad_request"],
  ])("does not retry %i", async (status, kind) => {
    const server = await serve(openaiError(status, "no", "invalid_request_error"));
    await expect(policy(server).next(REQUEST)).rejects.toMatchObject({ kind, status });
    expect(server.requests).toHaveLength(1);
  });

  it("honours retry-after-ms on 429 and then succeeds", async () => {
    const server = await serve(
      openaiError(429, "Rate limit reached for requests", "requests", "rate_limit_exceeded", {
        "retry-after-ms": "120",
      }),
      OK,
    );
    const started = Date.now();
    const reply = await policy(server).next(REQUEST);
    expect(reply.message.content).toBe("Done.");
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("reports kind rate_limit when 429 persists through every retry", async () => {
    const limited = openaiError(429, "Rate limit reached", "requests", "rate_limit_exceeded", {
      "retry-after": "0",
    });
    const server = await serve(limited, limited, limited);
    await expect(policy(server).next(REQUEST)).rejects.toMatchObject({ kind: "rate_limit", status: 429 });
    expect(server.requests).toHaveLength(3);
  });

  it("gives up on repeated 500s after maxRetries + 1 requests", async () => {
    const fail = openaiError(500, "The server had an error while processing your request.", "server_error");
    const server = await serve(fail, fail, fail, fail, fail);
    await expect(policy(server, { maxRetries: 3 }).next(REQUEST)).rejects.toMatchObject({ kind: "server" });
    expect(server.requests).toHaveLength(4);
  });

  it("treats 503 as overloaded", async () => {
    const busy = openaiError(503, "The engine is currently overloaded.", "server_error");
    const server = await serve(busy, busy);
    await expect(policy(server, { maxRetries: 1 }).next(REQUEST)).rejects.toMatchObject({
      kind: "overloaded",
    });
    expect(server.requests).toHaveLength(2);
  });

  it("times out on a server that never answers", async () => {
    const server = await serve({ kind: "hang" }, { kind: "hang" });
    // Short, but long enough for each request to reach the server on a slow machine before it fires.
    const error = await policy(server, { timeoutMs: 1_000, maxRetries: 1 })
      .next(REQUEST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
    expect((error as Error).message).toMatch(/ for 1000 ms after 2 attempts — /);
    expect(server.requests).toHaveLength(2);
  });

  it("tells the user to start a local server that refuses connections", async () => {
    const url = await closedPortURL();
    const error = await policy(url, { compatible: true, maxRetries: 0 })
      .next(REQUEST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "network" });
    expect((error as Error).message).toBe(
      `openai-compatible: could not connect to ${url}/v1 (ECONNREFUSED) — is the server running?`,
    );
  });

  it("refuses to start a compatible policy without a base URL", () => {
    vi.stubEnv("OPENAI_BASE_URL", "");
    expect(() => new OpenAIPolicy({ model: "qwen3", compatible: true })).toThrow(
      /pass baseURL or set OPENAI_BASE_URL/,
    );
  });

  it("refuses to start an OpenAI policy without a key", () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    expect(() => new OpenAIPolicy({ model: "gpt-5" })).toThrow(/set OPENAI_API_KEY or pass apiKey/);
  });
});
