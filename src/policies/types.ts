import type { AssistantMessage, Message, ToolSpec, Usage } from "../messages/index.js";

export type { ToolSpec };

/**
 * One model request. The order of fields is the cache order: `system`, `tools` and `memory` are the
 * stable prefix (they never change within a run); `messages` grow at the end.
 */
export interface PolicyRequest {
  system: string;
  tools: ToolSpec[];
  /** The memory file (AGENTS.md …), part of the stable prefix; empty when there is none. */
  memory: string;
  /** The conversation after the system prompt: the task, then assistant/tool turns. */
  messages: Message[];
  maxOutputTokens: number;
  /**
   * Sampling temperature, sent on the wire when set; unset leaves the provider's default (an agent
   * loop never sets it). Workflows that sample several candidates (agentless) set it per call.
   */
  temperature?: number;
}

export interface PolicyReply {
  message: AssistantMessage;
  usage: Usage;
  /** The model that answered, as the provider names it. */
  model: string;
  /** Why the model stopped generating (provider vocabulary, e.g. "tool_use", "stop"). */
  finishReason: string;
}

export interface Policy {
  /** The spec the policy was made from, e.g. "anthropic:claude-sonnet-4-5" or "scripted:fix.json". */
  readonly spec: string;
  /** The model name used for pricing; undefined for policies that call no model. */
  readonly model: string | undefined;
  next(request: PolicyRequest, signal?: AbortSignal): Promise<PolicyReply>;
}

export type PolicyErrorKind =
  | "auth" // 401/403: wrong or missing key
  | "rate_limit" // 429 after every retry
  | "overloaded" // 529 / 503 after every retry
  | "server" // other 5xx after every retry
  | "timeout" // the request took longer than allowed
  | "network" // could not connect
  | "bad_request" // 400/404/422: the request itself is wrong
  | "script_exhausted" // a scripted or replayed policy has no more turns
  | "invalid_response"; // the provider answered something we cannot read

/** A policy failure the loop records as stop reason `policy_error`, with a message that says what to do. */
export class PolicyError extends Error {
  constructor(
    readonly kind: PolicyErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PolicyError";
  }
}
