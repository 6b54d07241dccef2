import { describe, expect, it } from "vitest";
import { Ledger } from "../ledger/index.js";
import type { Policy, PolicyReply, PolicyRequest } from "../policies/index.js";
import { PrefetchPolicy, UNUSED_PREFETCH } from "./prefetch.js";

class CountingPolicy implements Policy {
  readonly spec = "counting";
  readonly model = "claude-sonnet-4-5";
  calls: PolicyRequest[] = [];
  async next(request: PolicyRequest): Promise<PolicyReply> {
    this.calls.push(request);
    return {
      message: { role: "assistant", content: `reply ${this.calls.length}`, toolCalls: [] },
      usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
      model: this.model,
      finishReason: "end_turn",
    };
  }
}

const request = (prompt: string): PolicyRequest => ({
  system: "s",
  tools: [],
  memory: "",
  messages: [{ role: "user", content: prompt }],
  maxOutputTokens: 10,
});

describe("the early first request", () => {
  it("answers the loop's first request when it is the same one: one call, no extra cost", async () => {
    const inner = new CountingPolicy();
    const ledger = new Ledger();
    const policy = new PrefetchPolicy(inner, ledger);
    policy.prefetch(request("fix it"));
    const reply = await policy.next(request("fix it"));
    expect(reply.message.content).toBe("reply 1");
    expect(inner.calls).toHaveLength(1);
    expect(policy.hits).toBe(1);
    // The next request is a fresh call.
    await policy.next(request("more"));
    expect(inner.calls).toHaveLength(2);
    expect(ledger.totals.requests).toBe(0); // the loop records its own requests, not this wrapper
  });

  it("is thrown away when the loop asks for something else, and its spend still reaches the ledger", async () => {
    const inner = new CountingPolicy();
    const ledger = new Ledger();
    const policy = new PrefetchPolicy(inner, ledger);
    policy.prefetch(request("fix it"));
    const reply = await policy.next(request("fix it, and: context from a hook"));
    expect(reply.message.content).toBe("reply 2");
    expect(policy.hits).toBe(0);
    await expect.poll(() => ledger.byAgent().find((s) => s.agent === UNUSED_PREFETCH)?.requests).toBe(1);
  });
});
