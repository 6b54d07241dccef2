import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "../messages/index.js";
import { ReplayPolicy } from "./replay.js";
import { loadScript, ScriptedPolicy } from "./scripted.js";
import { makePolicy, parsePolicySpec, resolveAutoPolicy } from "./spec.js";
import type { PolicyRequest } from "./types.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-scripted-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (messages: Message[]): PolicyRequest => ({
  system: "s",
  tools: [],
  memory: "",
  messages,
  maxOutputTokens: 100,
});

describe("ScriptedPolicy", () => {
  it("plays turns in order, skips turns whose condition fails, and estimates usage", async () => {
    const policy = new ScriptedPolicy("scripted:t", {
      turns: [
        { thought: "look", tool: "view", input: { path: "a.py" } },
        {
          thought: "only if broken",
          tool: "str_replace",
          input: { path: "a.py", old: "x", new: "y" },
          when: { contains: "FAILED" },
        },
        {
          thought: "both",
          calls: [
            { tool: "run_tests", input: {} },
            { tool: "submit", input: {} },
          ],
        },
      ],
    });
    const first = await policy.next(request([{ role: "user", content: "task" }]));
    expect(first.message).toMatchObject({
      content: "look",
      toolCalls: [{ name: "view", input: { path: "a.py" } }],
    });
    expect(first.usage.estimated).toBe(true);
    expect(first.usage.inputTokens).toBeGreaterThan(0);
    const second = await policy.next(
      request([
        { role: "user", content: "task" },
        first.message,
        { role: "tool", toolCallId: first.message.toolCalls[0]?.id ?? "", content: "all PASSED" },
      ]),
    );
    expect(second.message.toolCalls.map((c) => c.name)).toEqual(["run_tests", "submit"]);
    await expect(policy.next(request([]))).rejects.toThrow(/no more turns/);
  });

  it("explains a malformed script file", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ turns: [{ tool: "view", input: {}, when: { sometimes: true } }] }));
    expect(() => loadScript(bad)).toThrow(/does not match the script format/);
    writeFileSync(bad, "{ nope");
    expect(() => loadScript(bad)).toThrow(/not valid JSON/);
    expect(() => loadScript(join(dir, "missing.json"))).toThrow(/does not exist/);
  });
});

describe("ReplayPolicy", () => {
  it("replays recorded responses and reports a broken trajectory line by number", async () => {
    const path = join(dir, "t.jsonl");
    const response = {
      role: "assistant",
      content: "hi",
      toolCalls: [{ id: "c1", name: "submit", input: {} }],
    };
    writeFileSync(
      path,
      `${JSON.stringify({ type: "run_start" })}\n${JSON.stringify({ type: "turn", response, finish_reason: "tool_use" })}\n{"type": "tu`,
    );
    const policy = new ReplayPolicy("replay:t", path);
    expect((await policy.next(request([]))).message).toEqual(response);
    await expect(policy.next(request([]))).rejects.toThrow(/all 1 recorded turns were replayed/);
    writeFileSync(
      path,
      `{"type":"run_start"}\n{broken\n${JSON.stringify({ type: "turn", response, finish_reason: "x" })}\n`,
    );
    expect(() => new ReplayPolicy("replay:t", path)).toThrow(/t\.jsonl:2: broken JSONL/);
  });
});

describe("policy specs", () => {
  it("builds each kind and explains bad specs", () => {
    expect(makePolicy("openai-compatible:qwen3@http://127.0.0.1:9/v1").spec).toBe(
      "openai-compatible:qwen3@http://127.0.0.1:9/v1",
    );
    expect(() => makePolicy("openai-compatible:qwen3")).toThrow(
      /expected openai-compatible:<model>@<base url>/,
    );
    expect(() => makePolicy("gemini:pro")).toThrow(/no policy kind "gemini" \(use auto, .*anthropic:MODEL/);
    expect(() => makePolicy("anthropic:")).toThrow(/missing the model name/);
    expect(() => makePolicy("scripted")).toThrow(/needs a task with a reference script/);
    expect(() => makePolicy("auto")).toThrow(/names no agent until it is resolved/);
    expect(() => parsePolicySpec("auto:x")).toThrow(/takes nothing after it/);
    expect(() => parsePolicySpec("scripted:")).toThrow(/needs a file after the colon/);
  });

  it("auto picks a model only when a key is set, and says why", () => {
    expect(resolveAutoPolicy({})).toMatchObject({ spec: "scripted" });
    expect(resolveAutoPolicy({ ANTHROPIC_API_KEY: "k" }).spec).toMatch(/^anthropic:/);
    expect(resolveAutoPolicy({ OPENAI_API_KEY: "k" }).spec).toMatch(/^openai:/);
  });
});
