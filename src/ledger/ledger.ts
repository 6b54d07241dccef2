/**
 * The running cost of a run. A step cap bounds turns, not money, and one long turn can cost what
 * five short ones do; only a ledger of what each request actually used bounds spend.
 */
import type { Usage } from "../messages/index.js";
import { PRICES, type Price, type PriceTable, priceFor, ratesOf } from "./prices.js";

const TOKENS_PER_MILLION = 1_000_000;

/**
 * How much the uncached input may grow from one request to the next before an append-only request
 * counts as a cache bust. Neither Anthropic nor OpenAI caches a prompt shorter than 1,024 tokens, so
 * a smaller jump cannot be a lost cache entry.
 */
export const CACHE_BUST_TOLERANCE_TOKENS = 1024;

/** The USD cost of one request at `price`. */
export function costOf(usage: Usage, price: Price): number {
  const r = ratesOf(price);
  const perMillion =
    usage.inputTokens * r.input +
    usage.outputTokens * r.output +
    usage.cacheReadTokens * r.cacheRead +
    usage.cacheWriteTokens * r.cacheWrite;
  return perMillion / TOKENS_PER_MILLION;
}

/** Input the cache did not serve: billed at full price or, worse, at the write premium. */
export function uncachedInput(usage: Usage): number {
  return usage.inputTokens + usage.cacheWriteTokens;
}

/**
 * True when `next` looks like a cache bust after `prev`, assuming the conversation only appended in
 * between. A healthy append-only run writes about the same few new tokens each turn on top of a
 * growing cache read; when something upstream mutates the prefix (a timestamp in the system prompt,
 * a re-trim, a re-ordered tool list) the whole prompt is written again. So: the previous request
 * used the cache, this one read back less than the cache then held, and its uncached input grew by
 * more than `tolerance`. Requiring the read shortfall keeps a single large new observation (which
 * grows the uncached input but still reads the whole old prefix) from being flagged. Estimated
 * usages carry no cache information and are never judged.
 */
export function isCacheBust(prev: Usage, next: Usage, tolerance = CACHE_BUST_TOLERANCE_TOKENS): boolean {
  if (prev.estimated || next.estimated) return false;
  const heldAfterPrev = prev.cacheReadTokens + prev.cacheWriteTokens;
  if (heldAfterPrev === 0) return false; // no cache in play, nothing to bust
  const readShort = next.cacheReadTokens < heldAfterPrev;
  return readShort && uncachedInput(next) - uncachedInput(prev) > tolerance;
}

export interface RequestRecord {
  /** The model that answered, as the provider names it (a policy spec prefix like "anthropic:" is fine). */
  model: string;
  usage: Usage;
  latencyMs: number;
  /**
   * False when the harness deliberately rewrote earlier messages for this request (a batch trim
   * step), so a cache miss is expected rather than a bug. Defaults to true: the loop only appends,
   * and a prefix mutated by accident is exactly what the bust check is for.
   */
  appendOnly?: boolean;
  /**
   * Who asked: a subagent's name (`task-1`), a compaction's summary call (`compact`). Undefined is
   * the run's own agent. Each agent has its own prompt prefix, so cache busts compare within one.
   */
  agent?: string;
}

export interface LedgerEntry {
  /** 0-based position of the request in the run. */
  index: number;
  model: string;
  usage: Usage;
  latencyMs: number;
  /** Undefined when the model has no price: unknown, never a guessed 0. */
  costUsd: number | undefined;
  appendOnly: boolean;
  /** See `isCacheBust`. */
  cacheBust: boolean;
  /** `RequestRecord.agent`; undefined for the run's own agent. */
  agent: string | undefined;
}

/** One agent's share of a run: its requests, tokens and known dollars. */
export interface AgentShare {
  agent: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  knownCostUsd: number;
}

/** What the run's own agent is called in per-agent totals. */
export const MAIN_AGENT = "main";

export interface LedgerTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  latencyMs: number;
  /** The cost of every priced request: the whole cost when `costComplete`, a lower bound otherwise. */
  knownCostUsd: number;
  /** False once any request's model had no price. */
  costComplete: boolean;
  /** Models that had no price, sorted. */
  unknownModels: string[];
  /** True when any usage was an estimate (scripted or replayed policies), not a provider's report. */
  estimated: boolean;
  cacheBusts: number;
}

export interface LedgerOptions {
  /** The price table; defaults to the built-in one (use `withOverrides` to add a price file). */
  prices?: PriceTable;
  cacheBustToleranceTokens?: number;
}

function checkBudget(budgetUsd: number): void {
  if (!Number.isFinite(budgetUsd) || budgetUsd < 0) {
    throw new RangeError(`ledger: a budget must be a finite number of dollars ≥ 0, got ${budgetUsd}`);
  }
}

/**
 * Records each model request and keeps running totals. Costs of models without a price are left
 * out of `knownCostUsd` and reported through `costComplete: false` and `unknownModels`, so a run on
 * a local model still completes and its report says plainly that its cost is unknown.
 */
export class Ledger {
  private readonly prices: PriceTable;
  private readonly tolerance: number;
  private readonly log: LedgerEntry[] = [];
  private readonly unknown = new Set<string>();
  private sums: Omit<LedgerTotals, "unknownModels" | "costComplete"> = {
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    latencyMs: 0,
    knownCostUsd: 0,
    estimated: false,
    cacheBusts: 0,
  };

  constructor(options: LedgerOptions = {}) {
    this.prices = options.prices ?? PRICES;
    this.tolerance = options.cacheBustToleranceTokens ?? CACHE_BUST_TOLERANCE_TOKENS;
  }

  /** The USD cost of `usage` on `model`, or undefined when the model has no price. */
  cost(usage: Usage, model: string): number | undefined {
    const price = priceFor(model, this.prices);
    return price === undefined ? undefined : costOf(usage, price);
  }

  record(request: RequestRecord): LedgerEntry {
    const { model, usage, latencyMs } = request;
    const appendOnly = request.appendOnly ?? true;
    const agent = request.agent;
    const prev = this.log.findLast((e) => e.agent === agent);
    // Caches are per model, so a switch of model is a fresh start, not a bust.
    const cacheBust =
      appendOnly &&
      prev !== undefined &&
      prev.model === model &&
      isCacheBust(prev.usage, usage, this.tolerance);
    const entry: LedgerEntry = {
      index: this.log.length,
      model,
      usage: { ...usage },
      latencyMs,
      costUsd: this.cost(usage, model),
      appendOnly,
      cacheBust,
      agent,
    };
    this.log.push(entry);
    const s = this.sums;
    s.requests++;
    s.inputTokens += usage.inputTokens;
    s.outputTokens += usage.outputTokens;
    s.cacheReadTokens += usage.cacheReadTokens;
    s.cacheWriteTokens += usage.cacheWriteTokens;
    s.latencyMs += latencyMs;
    if (entry.costUsd === undefined) this.unknown.add(model);
    else s.knownCostUsd += entry.costUsd;
    if (usage.estimated) s.estimated = true;
    if (cacheBust) s.cacheBusts++;
    return entry;
  }

  get entries(): readonly LedgerEntry[] {
    return this.log;
  }

  get totals(): LedgerTotals {
    return { ...this.sums, costComplete: this.costComplete, unknownModels: [...this.unknown].sort() };
  }

  /** Requests, tokens and known dollars per agent (the run's own first, as `main`), in first-seen order. */
  byAgent(): AgentShare[] {
    const shares = new Map<string, AgentShare>([
      [MAIN_AGENT, { agent: MAIN_AGENT, requests: 0, inputTokens: 0, outputTokens: 0, knownCostUsd: 0 }],
    ]);
    for (const e of this.log) {
      const name = e.agent ?? MAIN_AGENT;
      let share = shares.get(name);
      if (!share) {
        share = { agent: name, requests: 0, inputTokens: 0, outputTokens: 0, knownCostUsd: 0 };
        shares.set(name, share);
      }
      share.requests++;
      share.inputTokens += e.usage.inputTokens;
      share.outputTokens += e.usage.outputTokens;
      share.knownCostUsd += e.costUsd ?? 0;
    }
    return [...shares.values()].filter((s) => s.requests > 0 || s.agent === MAIN_AGENT);
  }

  get costComplete(): boolean {
    return this.unknown.size === 0;
  }

  /** The cost of every priced request (a lower bound when `costComplete` is false). */
  get knownCostUsd(): number {
    return this.sums.knownCostUsd;
  }

  /** The whole cost of the run, or undefined when some request's model had no price. */
  get totalCostUsd(): number | undefined {
    return this.costComplete ? this.sums.knownCostUsd : undefined;
  }

  get cacheBusts(): number {
    return this.sums.cacheBusts;
  }

  /**
   * True when the known spend plus `nextCostUsd` (a forecast of the next request, e.g. the last
   * one's cost) would go over `budgetUsd`. Only priced requests count: a budget cannot bind spend
   * whose price is unknown, which `costComplete` reports.
   */
  wouldExceed(budgetUsd: number, nextCostUsd = 0): boolean {
    checkBudget(budgetUsd);
    return this.sums.knownCostUsd + nextCostUsd > budgetUsd;
  }

  /** Dollars left of `budgetUsd` after the known spend, never below 0. */
  remaining(budgetUsd: number): number {
    checkBudget(budgetUsd);
    return Math.max(0, budgetUsd - this.sums.knownCostUsd);
  }
}
