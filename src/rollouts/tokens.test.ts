import { describe, expect, it } from "vitest";
import { loadTokenizer, TokenizerError } from "./tokens.js";

describe("loadTokenizer", () => {
  it("has bytes built in: UTF-8 bytes as ids", async () => {
    const t = await loadTokenizer("bytes");
    expect(t.encode("é!")).toEqual([0xc3, 0xa9, 0x21]);
  });

  it("refuses an unknown name, listing the known ones", async () => {
    await expect(loadTokenizer("gpt2-ish")).rejects.toThrow(
      'unknown tokenizer "gpt2-ish" — use one of bytes, cl100k_base, o200k_base, p50k_base, r50k_base',
    );
  });

  it("says to install js-tiktoken when a tiktoken encoding is asked for and the package is missing", async () => {
    const missing = async () => {
      throw new Error("Cannot find package 'js-tiktoken'");
    };
    const error = await loadTokenizer("o200k_base", missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenizerError);
    expect((error as Error).message).toMatch(
      /needs the npm package js-tiktoken.*npm install js-tiktoken.*--tokenizer bytes/,
    );
  });

  it("encodes with js-tiktoken's getEncoding, special-token text taken as plain text", async () => {
    const seen: unknown[] = [];
    const fake = async () => ({
      getEncoding: (name: string) => ({
        encode: (text: string, allowed: unknown, disallowed: unknown) => {
          seen.push([name, text, allowed, disallowed]);
          return [7];
        },
      }),
    });
    const t = await loadTokenizer("cl100k_base", fake);
    expect(t.encode("<|endoftext|>")).toEqual([7]);
    expect(seen).toEqual([["cl100k_base", "<|endoftext|>", [], []]]);
  });

  it("encodes for real with the installed js-tiktoken: cl100k_base's ids for a known text", async () => {
    const t = await loadTokenizer("cl100k_base");
    // "hello world" is two tokens in cl100k_base: "hello" and " world".
    expect(t.encode("hello world")).toEqual([15339, 1917]);
    // A special token's text in tool output is plain text, never the control token (100257).
    expect(t.encode("<|endoftext|>")).not.toContain(100257);
  });
});
