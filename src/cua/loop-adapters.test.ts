/**
 * The loop with real provider adapters against loopback servers: screenshots reach the model as
 * image blocks at the model's size, clicks come back in its coordinates and land on the screen, and
 * the provider's usage drives the ledger and the budget.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AnthropicPolicy, OpenAIPolicy } from "../policies/index.js";
import { ANTHROPIC_TEST_MODEL, anthropicStream } from "../policies/testing/anthropic-wire.js";
import { LoopbackServer, type ScriptedResponse } from "../policies/testing/loopback.js";
import { openaiStream } from "../policies/testing/openai-wire.js";
import { HANG_GUARD_MS } from "../testing/time.js";
import { pngSize } from "./image.js";
import { runCuaEpisode } from "./loop.js";
import { MemorySettingsApp } from "./testing/memory-env.js";

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(responses: ScriptedResponse[]): Promise<LoopbackServer> {
  const server = await LoopbackServer.start(responses);
  servers.push(server);
  return server;
}

const TASK = { id: "settings", instruction: "Open the settings.", start: {} };

/** Every base64 image in a request body, whatever the provider calls it. */
function imagesIn(body: unknown): Buffer[] {
  const out: Buffer[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (o.type === "base64" && typeof o.data === "string") out.push(Buffer.from(o.data, "base64"));
      const url = (o.image_url as { url?: string } | undefined)?.url;
      if (url?.startsWith("data:image/png;base64,")) out.push(Buffer.from(url.slice(22), "base64"));
      Object.values(o).forEach(walk);
    }
  };
  walk(body);
  return out;
}

describe("runCuaEpisode through the provider adapters", () => {
  it("Anthropic: PNG image blocks at 1456×819, a click in model space lands on the button", async () => {
    const env = new MemorySettingsApp({ width: 1920, height: 1080 });
    const b = env.box("open");
    // The model answers in the 1456×819 image it saw: the button's centre scaled down.
    const x = Math.round(((b.x + b.width / 2) * 1456) / 1920);
    const y = Math.round(((b.y + b.height / 2) * 819) / 1080);
    const usage = { input_tokens: 2000, output_tokens: 50 };
    const server = await serve([
      anthropicStream({
        blocks: [{ toolUse: { id: "toolu_1", name: "click", json: JSON.stringify({ x, y }) } }],
        stopReason: "tool_use",
        usage,
      }),
      anthropicStream({
        blocks: [{ toolUse: { id: "toolu_2", name: "done", json: '{"summary":"opened"}' } }],
        stopReason: "tool_use",
        usage,
      }),
    ]);
    const policy = new AnthropicPolicy({
      model: ANTHROPIC_TEST_MODEL,
      apiKey: "sk-ant-test",
      baseURL: server.url,
      maxRetries: 0,
      timeoutMs: HANG_GUARD_MS,
    });
    const outcome = await runCuaEpisode({ env, policy, task: TASK, observe: "screenshot", settleMs: 0 });
    expect(outcome).toMatchObject({ stopReason: "submitted", steps: 2, usage: { inputTokens: 4000 } });
    expect(env.state.panelOpen).toBe(true);
    const [first, second] = server.requests.map((r) => imagesIn(r.body));
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(2); // the task's screenshot and the one after the click
    for (const png of second ?? []) expect(pngSize(png)).toEqual({ width: 1456, height: 819 });
    const body = server.requests[1]?.body as { tools: Array<{ name: string }>; messages: unknown[] };
    expect(body.tools.map((t) => t.name)).not.toContain("click_element");
    expect(JSON.stringify(body.messages)).toContain('"tool_use_id":"toolu_1"');
  });

  it("OpenAI: stops on the dollar budget the provider's usage spends", async () => {
    const env = new MemorySettingsApp({ width: 800, height: 450 });
    const click = (id: string, x: number) =>
      openaiStream({
        model: "gpt-4o",
        toolCalls: [{ id, name: "click", arguments: JSON.stringify({ x, y: 400 }) }],
        finishReason: "tool_calls",
        usage: { prompt_tokens: 200_000, completion_tokens: 100 },
      });
    const server = await serve([click("c1", 5), click("c2", 6), click("c3", 7)]);
    const policy = new OpenAIPolicy({
      model: "gpt-4o",
      apiKey: "sk-openai-test",
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      timeoutMs: HANG_GUARD_MS,
    });
    const outcome = await runCuaEpisode({
      env,
      policy,
      task: TASK,
      observe: "screenshot",
      settleMs: 0,
      limits: { budgetUsd: 0.75 },
    });
    // $2.50/MTok input: 200k tokens is $0.50 a request, so the budget is spent after the second.
    expect(outcome.stopReason).toBe("budget");
    expect(outcome.steps).toBe(2);
    expect(outcome.costUsd).toBeCloseTo(1.002, 3);
    expect(imagesIn(server.requests[1]?.body)).toHaveLength(2);
  });
});
