import { describe, expect, it } from "vitest";
import { type AgentlessPolicy, isAgentless, parseAgentlessSpec } from "./agentless-spec.js";
import { checkPolicySpec, makePolicy } from "./spec.js";

describe("agentless policy specs", () => {
  it("reads options before the model spec and keeps a URL's colons in the model spec", () => {
    expect(
      parseAgentlessSpec("agentless:k=6:temperature=0.5:openai-compatible:m@http://127.0.0.1:9/v1"),
    ).toEqual({ settings: { k: 6, temperature: 0.5 }, inner: "openai-compatible:m@http://127.0.0.1:9/v1" });
    expect(parseAgentlessSpec("agentless:anthropic:claude-sonnet-4-5")).toEqual({
      settings: { k: 4, temperature: 0.8 },
      inner: "anthropic:claude-sonnet-4-5",
    });
  });

  it.each([
    ["agentless", "the model spec is missing"],
    ["agentless:", "model spec is missing"],
    ["agentless:k=0:openai:gpt-4.1", "k must be a whole number of candidates from 1 to 40"],
    ["agentless:k=2.5:openai:gpt-4.1", 'got "2.5"'],
    ["agentless:temperature=hot:openai:gpt-4.1", "temperature must be a number from 0 to 2"],
    ["agentless:k=2:k=3:openai:gpt-4.1", 'option "k" is given twice'],
    ["agentless:n=2:openai:gpt-4.1", 'no option "n"'],
    ["agentless:scripted", "is not a model spec"],
    ["agentless:agentless:openai:gpt-4.1", "is not a model spec"],
    ["agentless:openai-compatible:m", "expected openai-compatible:MODEL@URL"],
  ])("checkPolicySpec(%s) says what is wrong", (spec, why) => {
    expect(() => checkPolicySpec(spec)).toThrow(why);
  });

  it("accepts the documented forms", () => {
    expect(() => checkPolicySpec("agentless:k=4:anthropic:claude-sonnet-4-5")).not.toThrow();
    expect(() => checkPolicySpec("agentless:openai-compatible:rec@http://127.0.0.1:8000/v1")).not.toThrow();
  });

  it("makes a workflow policy over a real adapter that refuses to act as an agent", async () => {
    const policy = makePolicy("agentless:k=2:openai-compatible:rec@http://127.0.0.1:9/v1");
    expect(isAgentless(policy)).toBe(true);
    const agentless = policy as AgentlessPolicy;
    expect(agentless.inner.spec).toBe("openai-compatible:rec@http://127.0.0.1:9/v1");
    expect(agentless.model).toBe("rec");
    expect(agentless.settings.k).toBe(2);
    await expect(agentless.next()).rejects.toThrow("fixed workflow for coding tasks");
  });
});
