/**
 * List prices per model, in USD per million tokens. A model with no price is reported as unknown by
 * the ledger, never priced at 0: a local model is free only when the user says so in a price file.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";

export interface Price {
  /** USD per million input tokens billed at the full rate. */
  input: number;
  /** USD per million output tokens. */
  output: number;
  /** USD per million cache-read tokens; defaults to CACHE_READ_MULTIPLIER × input. */
  cacheRead?: number;
  /** USD per million cache-write tokens; defaults to CACHE_WRITE_MULTIPLIER × input. */
  cacheWrite?: number;
}

/** Model name or family prefix → price. */
export type PriceTable = Readonly<Record<string, Price>>;

/** A cache hit skips recomputing the prefix, and Anthropic (and OpenAI's GPT-5 family) bill it at a tenth of input. */
export const CACHE_READ_MULTIPLIER = 0.1;
/** Anthropic's default 5-minute cache write costs a quarter more than plain input: the price of storing it. */
export const CACHE_WRITE_MULTIPLIER = 1.25;

/**
 * Published list prices (standard tier, no batch discount, short-context rate), as on Anthropic's
 * pricing page (platform.claude.com/docs/en/about-claude/pricing) and OpenAI's
 * (platform.openai.com/docs/pricing), cross-checked against public mirrors of both in 2026.
 * Prices change: check them before trusting a bill, and override with a price file.
 *
 * Keys are matched as prefixes (see `priceFor`), so a family key such as "claude-sonnet-4" also
 * prices "claude-sonnet-4-5-20250929". Where a longer name in a family has a different price, it has
 * its own key. OpenAI's older models discount cache hits less than 0.1×, so they set `cacheRead`;
 * OpenAI does not bill cache writes, so its models set `cacheWrite` to the input price.
 */
export const PRICES: PriceTable = {
  // Anthropic. Opus dropped from $15/$75 to $5/$25 at 4.5; the bare family key keeps the older,
  // higher price so an unlisted 4.x is over- rather than under-counted against a budget.
  "claude-opus-4": { input: 15, output: 75 },
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-opus-4-6": { input: 5, output: 25 },
  "claude-opus-4-7": { input: 5, output: 25 },
  "claude-opus-4-8": { input: 5, output: 25 },
  "claude-opus-5": { input: 5, output: 25 },
  "claude-sonnet-4": { input: 3, output: 15 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-sonnet-4-6": { input: 3, output: 15 },
  "claude-3-7-sonnet": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
  // OpenAI.
  "gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0.15 },
  "gpt-4.1": { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0.4 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0.1 },
  "gpt-5": { input: 1.25, output: 10, cacheWrite: 1.25 },
  "gpt-5-mini": { input: 0.25, output: 2, cacheWrite: 0.25 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cacheWrite: 0.05 },
  "gpt-5-pro": { input: 15, output: 120, cacheRead: 15, cacheWrite: 15 },
  "gpt-5.1": { input: 1.25, output: 10, cacheWrite: 1.25 },
  "gpt-5.2": { input: 1.75, output: 14, cacheWrite: 1.75 },
  o3: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2 },
  "o3-mini": { input: 1.1, output: 4.4, cacheRead: 0.55, cacheWrite: 1.1 },
  "o3-pro": { input: 20, output: 80, cacheRead: 20, cacheWrite: 20 },
  "o4-mini": { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 1.1 },
};

/** Provider prefixes a policy spec may carry ("anthropic:claude-…"); "openai-compatible:" is not one. */
const PROVIDER_PREFIXES = ["anthropic:", "openai:"];

/** What may follow a key in a longer model name: a dated or variant suffix, or a Vertex "@date". */
const NAME_BOUNDARY = /^[-@:]/;

/** The rates for every token kind, with the cache defaults filled in. */
export function ratesOf(price: Price): Required<Price> {
  return {
    input: price.input,
    output: price.output,
    cacheRead: price.cacheRead ?? price.input * CACHE_READ_MULTIPLIER,
    cacheWrite: price.cacheWrite ?? price.input * CACHE_WRITE_MULTIPLIER,
  };
}

/**
 * The price of `model`: the table entry with the longest key that is the whole name or a prefix of
 * it followed by "-", "@" or ":" (so "gpt-4o" does not price "gpt-4oz", and "claude-sonnet-4-5"
 * beats "claude-sonnet-4"). A leading "anthropic:" or "openai:" is ignored. Undefined when unknown.
 */
export function priceFor(model: string, table: PriceTable = PRICES): Price | undefined {
  const names = [model];
  for (const prefix of PROVIDER_PREFIXES) {
    if (model.startsWith(prefix)) names.push(model.slice(prefix.length));
  }
  let best: { key: string; price: Price } | undefined;
  for (const name of names) {
    for (const [key, price] of Object.entries(table)) {
      const matches = name === key || (name.startsWith(key) && NAME_BOUNDARY.test(name.slice(key.length)));
      if (matches && (best === undefined || key.length > best.key.length)) best = { key, price };
    }
  }
  return best?.price;
}

const rate = z.number().finite().nonnegative();
const priceFileSchema = z.record(
  z.string().min(1),
  z.strictObject({ input: rate, output: rate, cacheRead: rate.optional(), cacheWrite: rate.optional() }),
);

const PRICE_FILE_EXAMPLE = '{"my-model": {"input": 3, "output": 15}} (USD per million tokens)';

/** Parses a price file's text; `source` names the file in errors. */
export function parsePriceOverrides(text: string, source: string): PriceTable {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`price file "${source}": not valid JSON (${why}) — expected ${PRICE_FILE_EXAMPLE}`);
  }
  const parsed = priceFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(top level)"}: ${issue.message}`)
      .join("; ");
    throw new Error(`price file "${source}": ${issues} — expected ${PRICE_FILE_EXAMPLE}`);
  }
  const table: Record<string, Price> = {};
  for (const [model, p] of Object.entries(parsed.data)) {
    // Copied field by field: an absent cache rate must stay absent, not become `undefined`.
    const price: Price = { input: p.input, output: p.output };
    if (p.cacheRead !== undefined) price.cacheRead = p.cacheRead;
    if (p.cacheWrite !== undefined) price.cacheWrite = p.cacheWrite;
    table[model] = price;
  }
  return table;
}

/** Reads a price file: `{ "model-name": { "input": 3, "output": 15 } }`, optional cacheRead/cacheWrite. */
export async function loadPriceOverrides(path: string): Promise<PriceTable> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`price file "${path}": cannot be read (${why}) — check the path`);
  }
  return parsePriceOverrides(text, path);
}

/** The built-in table with `overrides` added or replacing entries. */
export function withOverrides(overrides: PriceTable, base: PriceTable = PRICES): PriceTable {
  return { ...base, ...overrides };
}

/** Policies that call no model spend nothing: priced at zero rather than "unknown", on every path. */
export const FREE_POLICIES: PriceTable = withOverrides({
  scripted: { input: 0, output: 0 },
  replay: { input: 0, output: 0 },
});
