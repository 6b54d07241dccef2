/**
 * What a conversation shows as it goes, for whoever presents it (the terminal, stream-json): every
 * reply as it arrives, every tool result, the plan as it changes, notices (hooks, warnings). Both
 * wrappers here only watch; they change nothing the model or the tools see.
 */
import type { Approval, ApprovalRequest, TodoItem } from "../harness/index.js";
import type { AssistantMessage, Usage } from "../messages/index.js";
import type { Policy, PolicyReply, PolicyRequest } from "../policies/index.js";
import type { ToolResult } from "../tools/index.js";
import type { TrajectorySink } from "../trajectory/index.js";

export interface AgentEvents {
  /** The reply, before its calls run. */
  assistant(
    message: AssistantMessage,
    reply: { usage: Usage; model: string; agent: string | undefined },
  ): void;
  toolResult(call: { id: string; name: string; input: unknown }, result: ToolResult): void;
  todos(items: readonly TodoItem[]): void;
  /** Something the user should read: a hook's message, a skipped hook, a warning. */
  notice(text: string): void;
  /** An "ask" permission: interactive sessions ask the user; headless ones never call this. */
  approve?(request: ApprovalRequest): Promise<Approval>;
}

/** Events nobody shows (tests, task runs). */
export const QUIET_EVENTS: AgentEvents = {
  assistant: () => undefined,
  toolResult: () => undefined,
  todos: () => undefined,
  notice: () => undefined,
};

/** The policy, telling `events` about each reply as soon as it comes. */
export function observedPolicy(policy: Policy, events: AgentEvents, agent?: string): Policy {
  return {
    spec: policy.spec,
    model: policy.model,
    next: async (request: PolicyRequest, signal?: AbortSignal): Promise<PolicyReply> => {
      const reply = await policy.next(request, signal);
      events.assistant(reply.message, { usage: reply.usage, model: policy.model ?? reply.model, agent });
      return reply;
    },
  };
}

/**
 * The trajectory, telling `events` about each call's result as its turn is recorded: the record has
 * the model's call ids, which a stream-json reader pairs with the tool_use blocks.
 */
export function teeTrajectory(sink: TrajectorySink, events: AgentEvents): TrajectorySink {
  return {
    write: (record) => {
      sink.write(record);
      if (record.type !== "turn") return;
      for (const a of record.actions)
        events.toolResult(a.call, {
          output: a.observation,
          ...(a.error ? { error: a.error as NonNullable<ToolResult["error"]> } : {}),
        });
    },
  };
}
