import type Anthropic from "@anthropic-ai/sdk";
import { type AdapterOptions, SdkAdapter } from "./adapter.js";
import { AnthropicReplyBuilder, toAnthropicRequest } from "./anthropic-translate.js";
import { envValue, isLoopback } from "./retry.js";
import { type Policy, PolicyError, type PolicyReply, type PolicyRequest } from "./types.js";

const DEFAULT_BASE_URL = "https://api.anthropic.com";

export type AnthropicPolicyOptions = AdapterOptions;

/** Claude through the Messages API, streamed, with tools and prompt caching. */
export class AnthropicPolicy implements Policy {
  readonly spec: string;
  readonly model: string;
  private readonly adapter: SdkAdapter<Anthropic>;

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
    const endpoint = {
      provider: "anthropic",
      baseURL,
      model: options.model,
      keyEnv: "ANTHROPIC_API_KEY",
      local: isLoopback(baseURL),
    };
    this.adapter = new SdkAdapter(
      options,
      endpoint,
      apiKey,
      "@anthropic-ai/sdk",
      () => import("@anthropic-ai/sdk"),
    );
  }

  next(request: PolicyRequest, signal?: AbortSignal): Promise<PolicyReply> {
    const body = toAnthropicRequest(request, this.model);
    return this.adapter.stream({
      // The raw event stream, not the `messages.stream()` helper: the helper's lenient tool-input
      // parser takes JSON cut off at max_tokens as whole and throws on other bad JSON (see
      // AnthropicReplyBuilder), and a bad argument must reach the model as an observation.
      open: (client, attemptSignal) => client.messages.create(body, { signal: attemptSignal }),
      builder: () => new AnthropicReplyBuilder(),
      finish: (reply) => reply.finish(),
      signal,
    });
  }
}
