/**
 * The cost model of a screenshot-driven computer-use run, computed by the code the agent runs: image tokens from scaling's patch rule,
 * screenshot trimming from the loop's history processors, dollars from the ledger's price arithmetic.
 * A run is simulated as its sequence of requests; caching is modelled the way Anthropic's works: a
 * breakpoint after the stable prefix and one at the end of every request, and a request reads from
 * the cache only the longest earlier request it starts with (else just the stable prefix).
 */
import { firstChange } from "../history/index.js";
import { costOf, type Price } from "../ledger/index.js";
import { estimateTokens, type Message } from "../messages/index.js";
import { parseScreenshotHistory } from "./history.js";
import { imageTokens, modelImageSize, TIERS, type TierName } from "./scaling.js";
import type { Size } from "./types.js";

/** A run's shape: stable prefix, goal, screenshot size, reply and output tokens per turn. */
export interface RunShape {
  prefixTokens: number;
  goalTokens: number;
  /** A screenshot of exactly this many tokens is built on the 28-pixel grid (50 × 30 = 1,500). */
  screenshot: Size;
  replyTokens: number;
  outputTokensPerTurn: number;
}

/**
 * The worked example the cost tests and `npm run bench cua` use: 800 stable tokens, a 100-token goal,
 * 1,500-token screenshots, 100 tokens of reply per turn and 500 output tokens over 7 turns.
 */
export const EXAMPLE_RUN: RunShape = {
  prefixTokens: 800,
  goalTokens: 100,
  screenshot: { width: 1400, height: 840 },
  replyTokens: 100,
  outputTokensPerTurn: 500 / 7,
};

/** The worked example's prices: $5 / $25 per million, cache reads 0.1×, writes 1.25× (the ledger's defaults). */
export const EXAMPLE_PRICE: Price = { input: 5, output: 25 };

export interface RunCost {
  turns: number;
  history: string;
  caching: boolean;
  /** Sum of the contexts sent (what an uncached run is billed for). */
  sentTokens: number;
  fullTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  costUsd: number;
  /** The largest single request: what must fit the context window. */
  peakContext: number;
}

const text = (tokens: number) => "x".repeat(tokens * 4);

/** The messages after `turns` turns of the shaped run (user goal + image, then reply + image per turn). */
function conversation(shape: RunShape, turns: number): Message[] {
  const image = () => ({
    type: "image" as const,
    mediaType: "image/png" as const,
    data: "",
    ...shape.screenshot,
  });
  const messages: Message[] = [{ role: "user", content: text(shape.goalTokens), images: [image()] }];
  for (let t = 2; t <= turns; t++) {
    messages.push({ role: "assistant", content: text(shape.replyTokens), toolCalls: [] });
    messages.push({ role: "tool", toolCallId: `c${t}`, content: "", images: [image()] });
  }
  return messages;
}

function tokensOf(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) {
    n += m.content === "" ? 0 : estimateTokens(m.content);
    if (m.role === "user" || m.role === "tool") n += (m.images ?? []).reduce((s, i) => s + imageTokens(i), 0);
  }
  return n;
}

/** Simulate the requests of a run and price them. `history` is the loop's spec: all, last:k, batch:k:E. */
export function simulateRun(
  shape: RunShape,
  turns: number,
  options: { history?: string; caching: boolean; price?: Price },
): RunCost {
  const history = parseScreenshotHistory(options.history ?? "all");
  const full = conversation(shape, turns);
  const requests: Message[][] = [];
  const cost: RunCost = {
    turns,
    history: history.name,
    caching: options.caching,
    sentTokens: 0,
    fullTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    peakContext: 0,
  };
  for (let t = 1; t <= turns; t++) {
    const request = history.apply(full.slice(0, 2 * t - 1), t - 1);
    const size = shape.prefixTokens + tokensOf(request);
    let read = 0;
    if (options.caching && requests.length > 0) {
      read = shape.prefixTokens;
      for (const earlier of requests) {
        if (firstChange(earlier, request) === earlier.length) {
          read = Math.max(read, shape.prefixTokens + tokensOf(earlier));
        }
      }
    }
    requests.push(request);
    const usage = {
      inputTokens: options.caching ? 0 : size,
      cacheReadTokens: read,
      cacheWriteTokens: options.caching ? size - read : 0,
      outputTokens: shape.outputTokensPerTurn,
    };
    cost.sentTokens += size;
    cost.fullTokens += usage.inputTokens;
    cost.cacheReadTokens += usage.cacheReadTokens;
    cost.cacheWriteTokens += usage.cacheWriteTokens;
    cost.outputTokens += usage.outputTokens;
    cost.costUsd += costOf(usage, options.price ?? EXAMPLE_PRICE);
    cost.peakContext = Math.max(cost.peakContext, size);
  }
  return cost;
}

/** Context after turn n in the shaped run (the example: 2,400 + 1,600 × (n − 1)). */
export function contextAfter(shape: RunShape, n: number): number {
  const image = imageTokens(shape.screenshot);
  return shape.prefixTokens + shape.goalTokens + image + (n - 1) * (shape.replyTokens + image);
}

/** First turn whose context exceeds `window` tokens (the example: turn 125 for 200k). */
export function turnsUntilWindow(shape: RunShape, window: number): number {
  let n = 1;
  while (contextAfter(shape, n) <= window) n++;
  return n;
}

export interface ImageCostRow {
  capture: Size;
  tier: TierName;
  model: Size;
  tokens: number;
  /** True when the provider would shrink the capture (capturing that large is waste). */
  downscaled: boolean;
}

/** The resolution table: what each capture size becomes and costs on each tier. */
export function imageCostTable(
  captures: readonly Size[] = [
    { width: 1920, height: 1080 },
    { width: 1568, height: 882 },
    { width: 1456, height: 819 },
    { width: 1400, height: 788 },
    { width: 1280, height: 720 },
    { width: 960, height: 540 },
  ],
): ImageCostRow[] {
  return captures.flatMap((capture) =>
    (["standard", "high"] as const).map((tier) => {
      const model = modelImageSize(capture, TIERS[tier]);
      return {
        capture,
        tier,
        model,
        tokens: imageTokens(model),
        downscaled: model.width !== capture.width || model.height !== capture.height,
      };
    }),
  );
}

/** Screenshots read over T turns keeping the last k: kT − k(k−1)/2 (T(T+1)/2 when all are kept). */
export function screenshotsRead(turns: number, keep: number): number {
  const k = Math.min(keep, turns);
  return k * turns - (k * (k - 1)) / 2;
}
