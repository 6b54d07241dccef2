import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it, vi } from "vitest";
import {
  type Endpoint,
  type Failure,
  isLoopback,
  isRetryable,
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  retryDelayMs,
  toPolicyError,
  withRetry,
} from "./retry.js";
import { classifySdkError, errorCode } from "./sdk-errors.js";
import { PolicyError } from "./types.js";

const ANTHROPIC: Endpoint = {
  provider: "anthropic",
  baseURL: "https://api.anthropic.com",
  model: "claude-test-1",
  keyEnv: "ANTHROPIC_API_KEY",
  local: false,
};
const LOCAL: Endpoint = {
  provider: "openai-compatible",
  baseURL: "http://127.0.0.1:8000/v1",
  model: "qwen3",
  keyEnv: "OPENAI_API_KEY",
  local: true,
};

const http = (status: number, headers?: Record<string, string>): Failure => ({
  kind: "http",
  status,
  ...(headers ? { headers: new Headers(headers) } : {}),
});

describe("retry rules", () => {
  it.each([429, 500, 502, 503, 504, 529])("retries %i", (status) => {
    expect(isRetryable(http(status))).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 413, 422])("does not retry %i", (status) => {
    expect(isRetryable(http(status))).toBe(false);
  });

  it("retries connection failures and timeouts but not unreadable answers", () => {
    expect(isRetryable({ kind: "connection", code: "ECONNRESET", detail: "" })).toBe(true);
    expect(isRetryable({ kind: "timeout" })).toBe(true);
    expect(isRetryable({ kind: "invalid_response", detail: "not JSON" })).toBe(false);
  });
});

describe("backoff", () => {
  it("doubles per attempt with jitter between half and the whole step", () => {
    expect(retryDelayMs(0, http(500), 1_000, () => 0)).toBe(500);
    expect(retryDelayMs(0, http(500), 1_000, () => 1)).toBe(1_000);
    expect(retryDelayMs(3, http(500), 1_000, () => 0.5)).toBe(6_000);
    expect(retryDelayMs(20, http(500), 1_000, () => 1)).toBe(MAX_BACKOFF_MS);
  });

  it("prefers retry-after-ms, then retry-after in seconds or as a date, and caps both", () => {
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2_000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5_000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();

    expect(retryDelayMs(0, http(429, { "retry-after": "3" }), 1)).toBe(3_000);
    expect(retryDelayMs(0, http(429, { "retry-after": "3600" }), 1)).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe("failure messages", () => {
  it("names the provider, the status, the cause and the fix", () => {
    const auth = toPolicyError(
      { kind: "http", status: 401, errorType: "authentication_error" },
      1,
      ANTHROPIC,
      {
        timeoutMs: 1,
      },
    );
    expect(auth).toBeInstanceOf(PolicyError);
    expect(auth.kind).toBe("auth");
    expect(auth.message).toBe(
      "anthropic: 401 authentication_error — the API key was rejected; set ANTHROPIC_API_KEY to a valid key",
    );

    const refused = toPolicyError({ kind: "connection", code: "ECONNREFUSED", detail: "" }, 1, LOCAL, {
      timeoutMs: 1,
    });
    expect(refused.kind).toBe("network");
    expect(refused.message).toBe(
      "openai-compatible: could not connect to http://127.0.0.1:8000/v1 (ECONNREFUSED) — is the server running?",
    );
  });

  it.each([
    [403, "auth"],
    [404, "bad_request"],
    [429, "rate_limit"],
    [503, "overloaded"],
    [529, "overloaded"],
    [502, "server"],
  ] as const)("maps %i to kind %s", (status, kind) => {
    expect(toPolicyError(http(status), 3, ANTHROPIC, { timeoutMs: 1 }).kind).toBe(kind);
  });
});

describe("reading SDK errors", () => {
  it("reads status, error type, message and headers from both SDKs", () => {
    const headers = new Headers({ "retry-after": "1" });
    const anthropic = Anthropic.APIError.generate(
      429,
      { type: "error", error: { type: "rate_limit_error", message: "slow down" } },
      undefined,
      headers,
    );
    expect(classifySdkError(anthropic, Anthropic)).toEqual({
      kind: "http",
      status: 429,
      errorType: "rate_limit_error",
      detail: "slow down",
      headers,
    });
    const openai = OpenAI.APIError.generate(
      401,
      {
        error: {
          message: "Incorrect API key",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      },
      undefined,
      headers,
    );
    expect(classifySdkError(openai, OpenAI)).toMatchObject({
      kind: "http",
      status: 401,
      detail: "Incorrect API key",
    });
  });

  it("finds the socket error code however deep node buries it", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const both = new AggregateError([refused, refused]);
    const wrapped = new TypeError("fetch failed", { cause: both });
    expect(errorCode(new Error("Connection error.", { cause: wrapped }))).toBe("ECONNREFUSED");
    expect(classifySdkError(new Anthropic.APIConnectionError({ cause: wrapped }), Anthropic)).toMatchObject({
      kind: "connection",
      code: "ECONNREFUSED",
    });
    expect(classifySdkError(new Anthropic.APIConnectionTimeoutError(), Anthropic)).toEqual({
      kind: "timeout",
    });
    expect(classifySdkError(new Error("bad"), Anthropic)).toEqual({
      kind: "invalid_response",
      detail: "bad",
    });
  });

  it("tells loopback servers from remote ones", () => {
    expect(isLoopback("http://127.0.0.1:8000/v1")).toBe(true);
    expect(isLoopback("http://localhost:11434/v1")).toBe(true);
    expect(isLoopback("https://api.openai.com/v1")).toBe(false);
  });
});

describe("withRetry", () => {
  const settings = { maxRetries: 2, baseDelayMs: 1, timeoutMs: 1_000 };
  const options = { settings, endpoint: ANTHROPIC, classify: (e: unknown) => e as Failure };

  it("makes maxRetries + 1 attempts, then throws a PolicyError", async () => {
    let attempts = 0;
    const run = async () => {
      attempts++;
      throw http(500);
    };
    await expect(withRetry(run, options)).rejects.toMatchObject({ kind: "server", status: 500 });
    expect(attempts).toBe(3);
  });

  it("returns as soon as an attempt succeeds", async () => {
    let attempts = 0;
    const run = async () => {
      attempts++;
      if (attempts < 2) throw http(529);
      return "ok";
    };
    await expect(withRetry(run, options)).resolves.toBe("ok");
    expect(attempts).toBe(2);
  });

  it("does not wait out a long backoff once the caller aborts", async () => {
    // Fake time: the backoff (15–30 s) never ends by itself, so only the abort can settle the call.
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const run = async () => {
        throw http(503);
      };
      const slow = { ...options, settings: { ...settings, baseDelayMs: 60_000 }, signal: controller.signal };
      let settled = false;
      const call = withRetry(run, slow).finally(() => {
        settled = true;
      });
      call.catch(() => undefined);
      await vi.advanceTimersByTimeAsync(1_000); // into the backoff
      expect(settled).toBe(false);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0); // no time passes: the abort alone ends the wait
      expect(settled).toBe(true);
      await expect(call).rejects.toMatchObject({ name: "AbortError" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("times out on silence, but not on a slow stream that keeps sending", async () => {
    const timeoutMs = 1_000;
    const timed = { ...options, settings: { ...settings, maxRetries: 0, timeoutMs } };
    const steady = withRetry(async (attempt) => {
      // Longer in all than the timeout, but a byte every 10 ms: a busy machine cannot stretch a 10 ms
      // gap to a whole second.
      const started = Date.now();
      while (Date.now() - started < 1.5 * timeoutMs) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        attempt.touch();
      }
      return "whole answer";
    }, timed);
    await expect(steady).resolves.toBe("whole answer");

    const silent = withRetry(
      (attempt) =>
        new Promise((_, reject) => {
          attempt.signal.addEventListener("abort", () => reject(new Error("aborted")));
        }),
      timed,
    );
    await expect(silent).rejects.toMatchObject({ kind: "timeout" });
  });
});
