import { describe, expect, it } from "vitest";
import { makePolicy, parsePolicySpec } from "./spec.js";

describe("agentless policy specs", () => {
  it("reads options before the model spec and keeps a URL's colons in the model spec", () => {
    expect(
      parsePolicySpec("agentless:k=6:temperature=0.5:openai-compatible:m@http://127.0.0.1:9/v1"),
    ).toMatchObject({
      kind: "agentless",
      settings: { k: 6, temperature: 0.5 },
      model: { kind: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:9/v1" },
    });
    expect(parsePolicySpec("agentless:anthropic:claude-sonnet-4-5")).toMatchObject({
      settings: { k: 4, temperature: 0.8 },
      model: { kind: "anthropic", text: "anthropic:claude-sonnet-4-5" },
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
    ["agentless:openai-compatible:m", "expected openai-compatible:<model>@<base url>"],
  ])("parsePolicySpec(%s) says what is wrong", (spec, why) => {
    expect(() => parsePolicySpec(spec)).toThrow(why);
  });

  it("accepts the documented forms", () => {
    expect(() => parsePolicySpec("agentless:k=4:anthropic:claude-sonnet-4-5")).not.toThrow();
    expect(() => parsePolicySpec("agentless:openai-compatible:rec@http://127.0.0.1:8000/v1")).not.toThrow();
  });

  it("is a workflow over a model, never an agent: makePolicy refuses it and names its model", () => {
    expect(() => makePolicy("agentless:k=2:openai-compatible:rec@http://127.0.0.1:9/v1")).toThrow(
      /the Agentless workflow, not an agent .*openai-compatible:rec@http:\/\/127\.0\.0\.1:9\/v1/,
    );
  });
});
