import { describe, expect, it } from "vitest";
import type { Usage } from "../messages/index.js";
import { costOf, isCacheBust, Ledger, priceFor, withOverrides } from "./index.js";

const usage = (u: Partial<Usage>): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  ...u,
});

const SONNET = "claude-sonnet-4-5-20250929"; // $3 in, $15 out

describe("cost", () => {
  const ledger = new Ledger();

  it("prices cache reads at 0.1× and cache writes at 1.25× of input", () => {
    expect(ledger.cost(usage({ cacheReadTokens: 1_000_000 }), SONNET)).toBeCloseTo(0.3, 12);
    expect(ledger.cost(usage({ cacheWriteTokens: 1_000_000 }), SONNET)).toBeCloseTo(3.75, 12);
    expect(ledger.cost(usage({ inputTokens: 1_000_000 }), SONNET)).toBeCloseTo(3, 12);
    expect(ledger.cost(usage({ outputTokens: 1_000_000 }), SONNET)).toBeCloseTo(15, 12);
  });

  it("adds up a mixed request", () => {
    // 2,000 × $3 + 500 × $15 + 40,000 × $0.30 + 1,600 × $3.75, per million:
    // 0.006 + 0.0075 + 0.012 + 0.006 = 0.0315
    const mixed = usage({
      inputTokens: 2000,
      outputTokens: 500,
      cacheReadTokens: 40_000,
      cacheWriteTokens: 1600,
    });
    expect(ledger.cost(mixed, SONNET)).toBeCloseTo(0.0315, 12);
  });

  it("reproduces the reference 7-turn run at $5/$25: $0.107", () => {
    // 38,400 cache reads ($0.0192), 12,000 written ($0.075), 500 out ($0.0125).
    const run = usage({ cacheReadTokens: 38_400, cacheWriteTokens: 12_000, outputTokens: 500 });
    expect(costOf(run, priceFor("claude-opus-4-5")!)).toBeCloseTo(0.1067, 12);
  });

  it("returns undefined for an unknown model instead of throwing or guessing 0", () => {
    expect(ledger.cost(usage({ inputTokens: 1000 }), "openai-compatible:llama")).toBeUndefined();
    const priced = new Ledger({
      prices: withOverrides({ "openai-compatible:llama": { input: 0, output: 0 } }),
    });
    expect(priced.cost(usage({ inputTokens: 1000 }), "openai-compatible:llama")).toBe(0);
  });
});

describe("Ledger totals", () => {
  it("keeps running token, latency and dollar totals", () => {
    const ledger = new Ledger();
    ledger.record({ model: SONNET, usage: usage({ inputTokens: 1_000_000 }), latencyMs: 1200 });
    ledger.record({
      model: SONNET,
      usage: usage({ outputTokens: 100_000, cacheReadTokens: 500_000 }),
      latencyMs: 800,
    });
    const t = ledger.totals;
    expect(t).toMatchObject({
      requests: 2,
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 500_000,
      cacheWriteTokens: 0,
      latencyMs: 2000,
      costComplete: true,
      unknownModels: [],
      estimated: false,
    });
    expect(t.knownCostUsd).toBeCloseTo(3 + 1.5 + 0.15, 12);
    expect(ledger.totalCostUsd).toBeCloseTo(4.65, 12);
    expect(ledger.entries.map((e) => e.index)).toEqual([0, 1]);
  });

  it("reports an unknown model's cost as unknown and keeps the known part", () => {
    const ledger = new Ledger();
    ledger.record({ model: SONNET, usage: usage({ inputTokens: 1_000_000 }), latencyMs: 10 });
    const entry = ledger.record({
      model: "openai-compatible:llama",
      usage: usage({ inputTokens: 5000 }),
      latencyMs: 10,
    });
    expect(entry.costUsd).toBeUndefined();
    expect(ledger.costComplete).toBe(false);
    expect(ledger.totalCostUsd).toBeUndefined();
    expect(ledger.knownCostUsd).toBeCloseTo(3, 12);
    expect(ledger.totals.unknownModels).toEqual(["openai-compatible:llama"]);
    expect(ledger.totals.inputTokens).toBe(1_005_000); // tokens are still counted
  });

  it("sums estimated usages, charging them only when their model has a price", () => {
    const ledger = new Ledger();
    ledger.record({ model: "scripted", usage: usage({ inputTokens: 400, estimated: true }), latencyMs: 0 });
    expect(ledger.totals).toMatchObject({
      inputTokens: 400,
      estimated: true,
      knownCostUsd: 0,
      costComplete: false,
    });
    ledger.record({ model: SONNET, usage: usage({ inputTokens: 1_000_000, estimated: true }), latencyMs: 0 });
    expect(ledger.entries[1]?.costUsd).toBeCloseTo(3, 12);
  });

  it("checks a budget against the known spend", () => {
    const ledger = new Ledger();
    ledger.record({ model: SONNET, usage: usage({ inputTokens: 500_000 }), latencyMs: 0 }); // $1.50
    expect(ledger.wouldExceed(2)).toBe(false);
    expect(ledger.wouldExceed(2, 0.75)).toBe(true);
    expect(ledger.wouldExceed(1)).toBe(true);
    expect(ledger.remaining(2)).toBeCloseTo(0.5, 12);
    expect(ledger.remaining(1)).toBe(0);
    expect(() => ledger.remaining(-1)).toThrow(/budget must be a finite number of dollars ≥ 0/);
    expect(() => ledger.wouldExceed(Number.NaN)).toThrow(RangeError);
  });
});

describe("cache-bust detection", () => {
  /** A healthy cached turn: the prefix is read back and only the new ~1,600 tokens are written. */
  const turn = (read: number, write = 1600): Usage =>
    usage({ cacheReadTokens: read, cacheWriteTokens: write, outputTokens: 80 });

  it("flags a request whose uncached input jumps while the conversation only appended", () => {
    const ledger = new Ledger();
    ledger.record({ model: SONNET, usage: turn(0, 2400), latencyMs: 0 });
    ledger.record({ model: SONNET, usage: turn(2400), latencyMs: 0 });
    ledger.record({ model: SONNET, usage: turn(4000), latencyMs: 0 });
    // Something rewrote the prefix: only the system prompt was read, the rest written again.
    const bust = ledger.record({ model: SONNET, usage: turn(1000, 6200), latencyMs: 0 });
    expect(bust.cacheBust).toBe(true);
    expect(ledger.entries.slice(0, 3).map((e) => e.cacheBust)).toEqual([false, false, false]);
    expect(ledger.cacheBusts).toBe(1);
    expect(ledger.totals.cacheBusts).toBe(1);
  });

  it("does not flag an expected rewrite, a big new observation, a model switch or a small wobble", () => {
    expect(isCacheBust(turn(4000), turn(1000, 6200))).toBe(true);
    // A batch-trim step rewrites on purpose.
    const ledger = new Ledger();
    ledger.record({ model: SONNET, usage: turn(4000), latencyMs: 0 });
    expect(
      ledger.record({ model: SONNET, usage: turn(1000, 6200), latencyMs: 0, appendOnly: false }).cacheBust,
    ).toBe(false);
    // A 12,000-token file view grows the uncached input, but the whole old prefix is still read back.
    expect(isCacheBust(turn(10_000), turn(11_600, 12_000))).toBe(false);
    // Caches are per model.
    const switched = new Ledger();
    switched.record({ model: SONNET, usage: turn(4000), latencyMs: 0 });
    expect(switched.record({ model: "claude-haiku-4-5", usage: turn(0, 7000), latencyMs: 0 }).cacheBust).toBe(
      false,
    );
    // Within the tolerance.
    expect(isCacheBust(turn(4000), turn(5000, 2500))).toBe(false);
  });

  it("does not judge requests with no cache in play or estimated usage", () => {
    const uncached = (n: number): Usage => usage({ inputTokens: n });
    expect(isCacheBust(uncached(2000), uncached(20_000))).toBe(false);
    expect(isCacheBust({ ...turn(4000), estimated: true }, turn(0, 9000))).toBe(false);
  });
});

describe("agents in one ledger", () => {
  it("keeps each agent's share and compares cache busts within one agent", () => {
    const ledger = new Ledger();
    ledger.record({
      model: SONNET,
      usage: usage({ inputTokens: 100, cacheReadTokens: 50_000 }),
      latencyMs: 1,
    });
    // A subagent's first request reads no cache: a fresh prefix, not a bust of the main agent's.
    const sub = ledger.record({
      model: SONNET,
      usage: usage({ inputTokens: 9_000 }),
      latencyMs: 1,
      agent: "task-1",
    });
    expect(sub.cacheBust).toBe(false);
    expect(sub.agent).toBe("task-1");
    const shares = ledger.byAgent();
    expect(shares.map((s) => [s.agent, s.requests, s.inputTokens])).toEqual([
      ["main", 1, 100],
      ["task-1", 1, 9_000],
    ]);
    expect(shares[1]?.knownCostUsd).toBeCloseTo(9_000 * 3e-6, 12);
  });
});
