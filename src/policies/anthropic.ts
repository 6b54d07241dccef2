import type Anthropic from "@anthropic-ai/sdk";
import { AnthropicReplyBuilder, toAnthropicRequest } from "./anthropic-translate.js";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  type Endpoint,
  envValue,
  isLoopback,
  type RetrySettings,
  withRetry,
} from "./retry.js";
import { classifySdkError } from "./sdk-errors.js";
import { type Policy, PolicyError, type PolicyReply, type PolicyRequest } from "./types.js";

const DEFAULT_BASE_URL = "https://api.anthropic.com";

export interface AnthropicPolicyOptions {
  model: string;
  /** Defaults to ANTHROPIC_API_KEY. */
  apiKey?: string | undefined;
  /** Defaults to ANTHROPIC_BASE_URL, then the public API. */
  baseURL?: string | undefined;
  maxRetries?: number | undefined;
  retryBaseDelayMs?: number | undefined;
  /** Longest silence allowed per attempt, before the first byte and between stream events. */
  timeoutMs?: number | undefined;
  /** Defaults to "anthropic:<model>". */
  spec?: string | undefined;
}

/** Claude through the Messages API, streamed, with tools and prompt caching. */
export class AnthropicPolicy implements Policy {
  readonly spec: string;
  readonly model: string;
  /**
   * The SDK is loaded when the first policy of its provider is made, not with this module: each SDK
   * costs 100–250 ms of start-up, which every command would otherwise pay for both providers.
   */
  private readonly sdk: Promise<{ client: Anthropic; classes: typeof Anthropic }>;
  private classes: typeof Anthropic | undefined;
  private readonly endpoint: Endpoint;
  private readonly settings: RetrySettings;

  constructor(options: AnthropicPolicyOptions) {
    const apiKey = options.apiKey ?? envValue("ANTHROPIC_API_KEY");
    if (!apiKey) {
      throw new PolicyError(
        "auth",
        `anthropic: no API key for model "${options.model}" — set ANTHROPIC_API_KEY or pass apiKey`,
      );
    }
    const baseURL = options.baseURL ?? envValue("ANTHROPIC_BASE_URL") ?? DEFAULT_BASE_URL;
    this.model = options.model;
    this.spec = options.spec ?? `anthropic:${options.model}`;
    this.settings = {
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    this.endpoint = {
      provider: "anthropic",
      baseURL,
      model: options.model,
      keyEnv: "ANTHROPIC_API_KEY",
      local: isLoopback(baseURL),
    };
    // Ours is the only retry loop (maxRetries: 0): two nested loops would multiply attempts and ignore
    // our abort signal between them. The SDK timeout is a backstop; our idle watchdog fires first.
    const timeout = this.settings.timeoutMs * 2;
    this.sdk = import("@anthropic-ai/sdk").then(({ default: classes }) => {
      this.classes = classes;
      return { client: new classes({ apiKey, baseURL, maxRetries: 0, timeout }), classes };
    });
    // Not awaited until the first request: a failed load is reported there, not as an unhandled rejection.
    this.sdk.catch(() => undefined);
  }

  next(request: PolicyRequest, signal?: AbortSignal): Promise<PolicyReply> {
    const body = toAnthropicRequest(request, this.model);
    return withRetry(
      async (attempt) => {
        // The raw event stream, not the `messages.stream()` helper: the helper's lenient tool-input
        // parser takes JSON cut off at max_tokens as whole and throws on other bad JSON (see
        // AnthropicReplyBuilder), and a bad argument must reach the model as an observation.
        const stream = await (await this.sdk).client.messages.create(body, { signal: attempt.signal });
        attempt.touch();
        const reply = new AnthropicReplyBuilder();
        for await (const event of stream) {
          attempt.touch();
          reply.add(event);
        }
        // The SDK ends iteration quietly when its request is aborted; surface that as a failure.
        if (attempt.signal.aborted) throw attempt.signal.reason;
        return reply.finish();
      },
      {
        settings: this.settings,
        endpoint: this.endpoint,
        classify: (error) =>
          this.classes
            ? classifySdkError(error, this.classes)
            : {
                kind: "invalid_response",
                detail: `the @anthropic-ai/sdk SDK could not be loaded: ${String(error)}`,
              },
        signal,
      },
    );
  }
}
