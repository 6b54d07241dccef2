import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CACHE_READ_MULTIPLIER,
  CACHE_WRITE_MULTIPLIER,
  loadPriceOverrides,
  parsePriceOverrides,
  priceFor,
  ratesOf,
  withOverrides,
} from "./index.js";

describe("priceFor", () => {
  it("prices dated and aliased names through their family", () => {
    expect(priceFor("claude-sonnet-4-5-20250929")).toEqual({ input: 3, output: 15 });
    expect(priceFor("claude-sonnet-4-20250514")).toEqual({ input: 3, output: 15 });
    expect(priceFor("claude-haiku-4-5-20251001")).toEqual({ input: 1, output: 5 });
    expect(priceFor("claude-sonnet-4-5@20250929")?.input).toBe(3);
    expect(priceFor("gpt-4o-2024-08-06")?.input).toBe(2.5);
  });

  it("takes the longest matching prefix", () => {
    expect(priceFor("claude-opus-4-5-20251101")?.input).toBe(5);
    expect(priceFor("claude-opus-4-1-20250805")?.input).toBe(15);
    expect(priceFor("claude-opus-4-20250514")?.input).toBe(15);
    expect(priceFor("gpt-4o-mini-2024-07-18")?.input).toBe(0.15);
    expect(priceFor("gpt-4.1-mini")?.input).toBe(0.4);
    expect(priceFor("gpt-5-mini-2025-08-07")?.input).toBe(0.25);
    expect(priceFor("o3-pro")?.input).toBe(20);
  });

  it("matches a prefix only at a name boundary", () => {
    expect(priceFor("gpt-4oz")).toBeUndefined();
    expect(priceFor("o3x")).toBeUndefined();
    // "claude-opus-4-10" is not "claude-opus-4-1"; it falls back to the (dearer) family price.
    expect(priceFor("claude-opus-4-10")?.input).toBe(15);
  });

  it("ignores an anthropic: or openai: spec prefix but not openai-compatible:", () => {
    expect(priceFor("anthropic:claude-sonnet-4-5")?.output).toBe(15);
    expect(priceFor("openai:gpt-4.1")?.output).toBe(8);
    expect(priceFor("openai-compatible:llama")).toBeUndefined();
    expect(priceFor("scripted")).toBeUndefined();
  });

  it("derives cache rates from the input price unless a model sets its own", () => {
    expect(CACHE_READ_MULTIPLIER).toBe(0.1);
    expect(CACHE_WRITE_MULTIPLIER).toBe(1.25);
    const sonnet = ratesOf(priceFor("claude-sonnet-4-5")!);
    expect(sonnet.cacheRead).toBeCloseTo(0.3, 12);
    expect(sonnet.cacheWrite).toBeCloseTo(3.75, 12);
    expect(ratesOf(priceFor("gpt-4.1")!).cacheRead).toBe(0.5); // OpenAI's 4.1 discounts hits 75%, not 90%
  });
});

describe("price overrides", () => {
  it("parses a price file and adds to or replaces built-in prices", () => {
    const overrides = parsePriceOverrides(
      '{"openai-compatible:llama": {"input": 0, "output": 0}, "claude-sonnet-4-5": {"input": 2, "output": 10, "cacheRead": 0.2}}',
      "prices.json",
    );
    expect(overrides["claude-sonnet-4-5"]).toEqual({ input: 2, output: 10, cacheRead: 0.2 });
    const table = withOverrides(overrides);
    expect(priceFor("openai-compatible:llama", table)).toEqual({ input: 0, output: 0 });
    expect(priceFor("claude-sonnet-4-5-20250929", table)?.input).toBe(2);
    expect(priceFor("claude-haiku-4-5", table)?.input).toBe(1);
  });

  it("says what is wrong with a bad file and what a good one looks like", () => {
    expect(() => parsePriceOverrides("{not json", "p.json")).toThrow(
      /price file "p\.json": not valid JSON .*expected \{"my-model": \{"input": 3, "output": 15\}\}/,
    );
    expect(() => parsePriceOverrides('{"m": {"input": "3", "output": 15}}', "p.json")).toThrow(
      /price file "p\.json": m\.input: .*expected/,
    );
    expect(() => parsePriceOverrides('{"m": {"input": -1, "output": 15}}', "p.json")).toThrow(/m\.input/);
    expect(() => parsePriceOverrides('{"m": {"input": 3}}', "p.json")).toThrow(/m\.output/);
    expect(() => parsePriceOverrides('{"m": {"input": 3, "output": 15, "cache": 1}}', "p.json")).toThrow(/m/);
    expect(() => parsePriceOverrides("[1, 2]", "p.json")).toThrow(/\(top level\)/);
  });

  it("loads a file from disk and names a missing one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "acilab-prices-"));
    try {
      const path = join(dir, "prices.json");
      await writeFile(path, '{"local-model": {"input": 0.5, "output": 1}}');
      expect(await loadPriceOverrides(path)).toEqual({ "local-model": { input: 0.5, output: 1 } });
      await expect(loadPriceOverrides(join(dir, "missing.json"))).rejects.toThrow(
        /price file ".*missing\.json": cannot be read .*check the path/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
