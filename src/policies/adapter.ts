/**
 * What the provider adapters (Anthropic, OpenAI) share: their common options, the SDK loaded on first
 * use, and one streamed call under our retry loop. Each adapter keeps only what differs: its key and
 * URL rules, its request translation and its reply builder.
 */
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  type Endpoint,
  type RetrySettings,
  withRetry,
} from "./retry.js";
import { classifySdkError, type SdkErrorClasses } from "./sdk-errors.js";
import type { PolicyReply } from "./types.js";

export interface AdapterOptions {
  model: string;
  /** Defaults to the provider's key variable (ANTHROPIC_API_KEY, OPENAI_API_KEY). */
  apiKey?: string | undefined;
  /** Defaults to the provider's URL variable (ANTHROPIC_BASE_URL, OPENAI_BASE_URL), then the public API. */
  baseURL?: string | undefined;
  maxRetries?: number | undefined;
  retryBaseDelayMs?: number | undefined;
  /** Longest silence allowed per attempt, before the first byte and between stream events. */
  timeoutMs?: number | undefined;
  /** Defaults to "<provider>:<model>". */
  spec?: string | undefined;
}

/** The default export of a Stainless-generated SDK: the client's constructor, carrying the error classes. */
export type SdkClass<Client> = SdkErrorClasses &
  (new (options: {
    apiKey: string;
    baseURL: string;
    maxRetries: number;
    timeout: number;
  }) => Client);

/** Collects one attempt's stream into a reply; a fresh one per attempt. */
export interface ReplyBuilder<Event> {
  add(event: Event): void;
}

export interface StreamCall<Client, Event, Builder extends ReplyBuilder<Event>> {
  /** Starts the request; the signal is the attempt's (our watchdog and the caller's abort). */
  open: (client: Client, signal: AbortSignal) => Promise<AsyncIterable<Event>>;
  builder: () => Builder;
  finish: (builder: Builder) => PolicyReply;
  signal?: AbortSignal | undefined;
}

export class SdkAdapter<Client> {
  readonly settings: RetrySettings;
  /**
   * The SDK is loaded when the first policy of its provider is made, not with this module: each SDK
   * costs 100–250 ms of start-up, which every command would otherwise pay for both providers.
   */
  private readonly client: Promise<Client>;
  private classes: SdkErrorClasses | undefined;

  constructor(
    options: AdapterOptions,
    private readonly endpoint: Endpoint,
    apiKey: string,
    /** The package, named when it cannot be loaded. */
    private readonly packageName: string,
    /** A literal `import()` of the SDK in the adapter, so bundlers and the loader still see it. */
    load: () => Promise<{ default: SdkClass<Client> }>,
  ) {
    this.settings = {
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    // Ours is the only retry loop (maxRetries: 0): two nested loops would multiply attempts and ignore
    // our abort signal between them. The SDK timeout is a backstop; our idle watchdog fires first.
    const timeout = this.settings.timeoutMs * 2;
    const { baseURL } = endpoint;
    this.client = load().then(({ default: classes }) => {
      this.classes = classes;
      return new classes({ apiKey, baseURL, maxRetries: 0, timeout });
    });
    // Not awaited until the first request: a failed load is reported there, not as an unhandled rejection.
    this.client.catch(() => undefined);
  }

  /** One streamed request, retried as a whole; every event counts as a sign of life for the watchdog. */
  stream<Event, Builder extends ReplyBuilder<Event>>(
    call: StreamCall<Client, Event, Builder>,
  ): Promise<PolicyReply> {
    return withRetry(
      async (attempt) => {
        const stream = await call.open(await this.client, attempt.signal);
        attempt.touch();
        const reply = call.builder();
        for await (const event of stream) {
          attempt.touch();
          reply.add(event);
        }
        // The SDK ends iteration quietly when its request is aborted; surface that as a failure.
        if (attempt.signal.aborted) throw attempt.signal.reason;
        return call.finish(reply);
      },
      {
        settings: this.settings,
        endpoint: this.endpoint,
        classify: (error) =>
          this.classes
            ? classifySdkError(error, this.classes)
            : {
                kind: "invalid_response",
                detail: `the ${this.packageName} SDK could not be loaded: ${String(error)}`,
              },
        signal: call.signal,
      },
    );
  }
}
