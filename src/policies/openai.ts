import type OpenAI from "openai";
import { type AdapterOptions, SdkAdapter } from "./adapter.js";
import { OpenAIReplyBuilder, toOpenAIRequest } from "./openai-translate.js";
import { envValue, isLoopback } from "./retry.js";
import { type Policy, PolicyError, type PolicyReply, type PolicyRequest } from "./types.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Local servers ignore the key, but the SDK refuses to start without one. */
const PLACEHOLDER_KEY = "not-needed";

export interface OpenAIPolicyOptions extends AdapterOptions {
  /** Any server speaking Chat Completions (vLLM, llama.cpp, Ollama, LM Studio) rather than OpenAI itself. */
  compatible?: boolean | undefined;
}

/** A model behind the Chat Completions API, streamed, with function tools. */
export class OpenAIPolicy implements Policy {
  readonly spec: string;
  readonly model: string;
  private readonly adapter: SdkAdapter<OpenAI>;
  private readonly compatible: boolean;

  constructor(options: OpenAIPolicyOptions) {
    this.compatible = options.compatible ?? false;
    const provider = this.compatible ? "openai-compatible" : "openai";
    // A compatible server has no public default: the base URL is required in practice.
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
    const endpoint = {
      provider,
      baseURL,
      model: options.model,
      keyEnv: "OPENAI_API_KEY",
      local: this.compatible || isLoopback(baseURL),
    };
    this.adapter = new SdkAdapter(options, endpoint, apiKey, "openai", () => import("openai"));
  }

  next(request: PolicyRequest, signal?: AbortSignal): Promise<PolicyReply> {
    const body = toOpenAIRequest(request, this.model, this.compatible);
    return this.adapter.stream({
      open: (client, attemptSignal) => client.chat.completions.create(body, { signal: attemptSignal }),
      builder: () => new OpenAIReplyBuilder(),
      finish: (reply) => reply.finish(promptText(body)),
      signal,
    });
  }
}

/** What the estimate counts when a server reports no usage: every message and tool as sent. */
function promptText(body: OpenAI.Chat.ChatCompletionCreateParamsStreaming): string {
  return JSON.stringify(body.messages) + (body.tools ? JSON.stringify(body.tools) : "");
}
