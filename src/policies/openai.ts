import type OpenAI from "openai";
import { OpenAIReplyBuilder, toOpenAIRequest } from "./openai-translate.js";
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

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Local servers ignore the key, but the SDK refuses to start without one. */
const PLACEHOLDER_KEY = "not-needed";

export interface OpenAIPolicyOptions {
  model: string;
  /** Defaults to OPENAI_API_KEY; optional for a compatible server. */
  apiKey?: string | undefined;
  /** Defaults to OPENAI_BASE_URL, then the public API. Required in practice for a compatible server. */
  baseURL?: string | undefined;
  maxRetries?: number | undefined;
  retryBaseDelayMs?: number | undefined;
  /** Longest silence allowed per attempt, before the first byte and between stream events. */
  timeoutMs?: number | undefined;
  /** Defaults to "openai:<model>" or "openai-compatible:<model>". */
  spec?: string | undefined;
  /** Any server speaking Chat Completions (vLLM, llama.cpp, Ollama, LM Studio) rather than OpenAI itself. */
  compatible?: boolean | undefined;
}

/** A model behind the Chat Completions API, streamed, with function tools. */
export class OpenAIPolicy implements Policy {
  readonly spec: string;
  readonly model: string;
  /**
   * The SDK is loaded when the first policy of its provider is made, not with this module: each SDK
   * costs 100–250 ms of start-up, which every command would otherwise pay for both providers.
   */
  private readonly sdk: Promise<{ client: OpenAI; classes: typeof OpenAI }>;
  private classes: typeof OpenAI | undefined;
  private readonly endpoint: Endpoint;
  private readonly settings: RetrySettings;
  private readonly compatible: boolean;

  constructor(options: OpenAIPolicyOptions) {
    this.compatible = options.compatible ?? false;
    const provider = this.compatible ? "openai-compatible" : "openai";
    const givenURL = options.baseURL ?? envValue("OPENAI_BASE_URL");
    if (this.compatible && !givenURL) {
      throw new PolicyError(
        "bad_request",
        `openai-compatible: no base URL for model "${options.model}" — pass baseURL or set OPENAI_BASE_URL, ` +
          "e.g. http://127.0.0.1:8000/v1 for vLLM or http://127.0.0.1:11434/v1 for Ollama",
      );
    }
    const baseURL = givenURL ?? DEFAULT_BASE_URL;
    const apiKey =
      options.apiKey ?? envValue("OPENAI_API_KEY") ?? (this.compatible ? PLACEHOLDER_KEY : undefined);
    if (!apiKey) {
      throw new PolicyError(
        "auth",
        `openai: no API key for model "${options.model}" — set OPENAI_API_KEY or pass apiKey ` +
          "(for a local server, use an openai-compatible policy with its base URL)",
      );
    }
    this.model = options.model;
    this.spec = options.spec ?? `${provider}:${options.model}`;
    this.settings = {
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    this.endpoint = {
      provider,
      baseURL,
      model: options.model,
      keyEnv: "OPENAI_API_KEY",
      local: this.compatible || isLoopback(baseURL),
    };
    // See AnthropicPolicy: ours is the only retry loop, and our idle watchdog fires before the SDK timeout.
    const timeout = this.settings.timeoutMs * 2;
    this.sdk = import("openai").then(({ default: classes }) => {
      this.classes = classes;
      return { client: new classes({ apiKey, baseURL, maxRetries: 0, timeout }), classes };
    });
    // Not awaited until the first request: a failed load is reported there, not as an unhandled rejection.
    this.sdk.catch(() => undefined);
  }

  next(request: PolicyRequest, signal?: AbortSignal): Promise<PolicyReply> {
    const body = toOpenAIRequest(request, this.model, this.compatible);
    return withRetry(
      async (attempt) => {
        const stream = await (await this.sdk).client.chat.completions.create(body, {
          signal: attempt.signal,
        });
        attempt.touch();
        const reply = new OpenAIReplyBuilder();
        for await (const chunk of stream) {
          attempt.touch();
          reply.add(chunk);
        }
        // The SDK ends iteration quietly when its request is aborted; surface that as a failure.
        if (attempt.signal.aborted) throw attempt.signal.reason;
        return reply.finish(promptText(body));
      },
      {
        settings: this.settings,
        endpoint: this.endpoint,
        classify: (error) =>
          this.classes
            ? classifySdkError(error, this.classes)
            : { kind: "invalid_response", detail: `the openai SDK could not be loaded: ${String(error)}` },
        signal,
      },
    );
  }
}

/** What the estimate counts when a server reports no usage: every message and tool as sent. */
function promptText(body: OpenAI.Chat.ChatCompletionCreateParamsStreaming): string {
  return JSON.stringify(body.messages) + (body.tools ? JSON.stringify(body.tools) : "");
}
