import { PolicyError, type PolicyErrorKind } from "./types.js";

/** Four retries (up to 15 s of backoff at the default base) ride out a brief overload without hiding an outage. */
export const DEFAULT_MAX_RETRIES = 4;
/** First backoff step; doubled per attempt. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 1_000;
/** No single backoff sleep is longer than this, however many attempts came before. */
export const MAX_BACKOFF_MS = 30_000;
/** A server's retry-after is honoured up to this; a longer ask is clamped so a run never stalls for minutes. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Ten minutes of silence, the SDKs' own default: long enough for a slow local model's first token. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** Who a request went to, so a failure message can name it and say what to fix. */
export interface Endpoint {
  /** "anthropic", "openai" or "openai-compatible". */
  provider: string;
  baseURL: string;
  model: string;
  /** The environment variable a user sets to fix a rejected key. */
  keyEnv: string;
  /** A self-hosted server: a refused connection most likely means it is not running. */
  local: boolean;
}

/** An environment variable, treating set-but-blank as unset (a common leftover of `export KEY=`). */
export function envValue(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** A server on this machine is one the user runs, so "is it running?" is the useful question. */
export function isLoopback(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host === "localhost" || host === "[::1]" || host.startsWith("127.") || host === "0.0.0.0";
  } catch {
    return false;
  }
}

export interface RetrySettings {
  maxRetries: number;
  baseDelayMs: number;
  /** Longest silence allowed within one attempt: before the first byte, and between stream events. */
  timeoutMs: number;
}

/** One failed attempt, reduced to what decides retrying and what the final message says. */
export type Failure =
  | { kind: "http"; status: number; errorType?: string; detail?: string; headers?: Headers }
  | { kind: "connection"; code?: string; detail: string }
  | { kind: "timeout" }
  | { kind: "invalid_response"; detail: string };

/** Handed to each attempt: the signal to pass to the SDK, and `touch` to call whenever bytes arrive. */
export interface Attempt {
  signal: AbortSignal;
  touch(): void;
}

export interface RetryOptions {
  settings: RetrySettings;
  endpoint: Endpoint;
  classify: (error: unknown) => Failure;
  signal?: AbortSignal | undefined;
  /** Injected by tests to make jitter deterministic. */
  random?: () => number;
}

export async function withRetry<T>(run: (attempt: Attempt) => Promise<T>, options: RetryOptions): Promise<T> {
  const { settings, signal } = options;
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal);
    const watchdog = new Watchdog(settings.timeoutMs, signal);
    let failure: Failure;
    try {
      return await run({ signal: watchdog.signal, touch: () => watchdog.touch() });
    } catch (error) {
      throwIfAborted(signal);
      failure = watchdog.timedOut ? { kind: "timeout" } : options.classify(error);
    } finally {
      watchdog.dispose();
    }
    const attempts = attempt + 1;
    if (!isRetryable(failure) || attempt >= settings.maxRetries) {
      throw toPolicyError(failure, attempts, options.endpoint, settings);
    }
    await sleep(retryDelayMs(attempt, failure, settings.baseDelayMs, options.random), signal);
  }
}

export function isRetryable(failure: Failure): boolean {
  switch (failure.kind) {
    case "http":
      return failure.status === 429 || failure.status >= 500;
    case "connection":
    case "timeout":
      return true;
    case "invalid_response":
      return false;
  }
}

/** Backoff before retry number `attempt + 1`: the server's retry-after if it sent one, else exponential with jitter. */
export function retryDelayMs(
  attempt: number,
  failure: Failure,
  baseDelayMs: number,
  random: () => number = Math.random,
): number {
  const asked = failure.kind === "http" && failure.headers ? retryAfterMs(failure.headers) : undefined;
  if (asked !== undefined) return Math.min(Math.max(asked, 0), MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(MAX_BACKOFF_MS, baseDelayMs * 2 ** attempt);
  // Half fixed, half random: clients that failed together do not come back together.
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** `retry-after-ms` (Anthropic, OpenAI) is more precise than `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms)) return ms;
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date - now;
}

export function toPolicyError(
  failure: Failure,
  attempts: number,
  endpoint: Endpoint,
  settings: Pick<RetrySettings, "timeoutMs">,
): PolicyError {
  const who = endpoint.provider;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  switch (failure.kind) {
    case "timeout":
      return new PolicyError(
        "timeout",
        `${who}: no response from ${endpoint.baseURL} for ${settings.timeoutMs} ms${tries} — ` +
          "check that the server is up, or raise timeoutMs for a slow model",
      );
    case "connection": {
      const code = failure.code ?? failure.detail;
      const next = endpoint.local
        ? "is the server running?"
        : "check the network connection, proxy settings and the base URL";
      return new PolicyError(
        "network",
        `${who}: could not connect to ${endpoint.baseURL} (${code})${tries} — ${next}`,
      );
    }
    case "invalid_response":
      return new PolicyError(
        "invalid_response",
        `${who}: unreadable response from ${endpoint.baseURL} (${failure.detail}) — ` +
          `check that the base URL points at a ${endpoint.provider === "anthropic" ? "Messages" : "Chat Completions"} API`,
      );
    case "http": {
      const [kind, next] = httpAdvice(failure.status, endpoint);
      const type = failure.errorType ? ` ${failure.errorType}` : "";
      const detail = failure.detail ? ` (${failure.detail})` : "";
      return new PolicyError(
        kind,
        `${who}: ${failure.status}${type}${detail}${tries} — ${next}`,
        failure.status,
      );
    }
  }
}

function httpAdvice(status: number, endpoint: Endpoint): [PolicyErrorKind, string] {
  if (status === 401) return ["auth", `the API key was rejected; set ${endpoint.keyEnv} to a valid key`];
  if (status === 403) {
    return [
      "auth",
      `the key may not use model "${endpoint.model}"; check the key's permissions or pick another model`,
    ];
  }
  if (status === 404) {
    return ["bad_request", `check the model name "${endpoint.model}" and the base URL ${endpoint.baseURL}`];
  }
  if (status === 429)
    return ["rate_limit", "rate limited; wait a minute, run fewer agents at once, or raise the limit"];
  if (status === 529 || status === 503)
    return ["overloaded", "the provider is overloaded; try again in a few minutes"];
  if (status >= 500) return ["server", "the provider failed; try again later or check its status page"];
  return ["bad_request", "the provider rejected the request as sent; the reason above says what to change"];
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("The operation was aborted.", "AbortError"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Aborts an attempt after `timeoutMs` of silence. An idle timer rather than a total deadline, so a long
 * answer that keeps streaming is never cut off, while a server that stops sending is.
 */
class Watchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onParentAbort = () => this.controller.abort(this.parent?.reason);
  timedOut = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly parent: AbortSignal | undefined,
  ) {
    parent?.addEventListener("abort", this.onParentAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException("No response within the timeout.", "TimeoutError"));
    }, this.timeoutMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener("abort", this.onParentAbort);
  }
}
