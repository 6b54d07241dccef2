/**
 * A trajectory's records → the conversation in Chat Completions' shape, with the source mask: 1 on
 * what the policy produced (its assistant turns: text and tool calls), 0 on what the harness, the
 * task or a tool wrote. Pure: records in, messages out.
 */
import type { ImagePart, Message, ToolCall } from "../messages/index.js";
import type { RunStartRecord, TrajectoryRecord, TurnRecord } from "../trajectory/index.js";
import type { ChatMessage, ChatTool } from "./schema.js";

export interface Conversation {
  messages: ChatMessage[];
  /** Per message, 1 where the policy wrote it. */
  mask: (0 | 1)[];
  tools: ChatTool[];
  policy: string | null;
  history: string | null;
  model: string | null;
}

/** Why records cannot be made into a conversation; the exporter counts these and skips the line. */
export class ConversationError extends Error {
  override name = "ConversationError";
}

/**
 * Each position of the conversation is taken from the first request that holds it, and the last
 * turn's reply and tool results are added after the last request. Under `history: all` that is the
 * last request plus its answer; under a trimming history (`last:k`, `batch:…`) an old tool result is
 * kept as the model first read it, before a later request collapsed it.
 */
export function conversationOf(records: readonly TrajectoryRecord[]): Conversation {
  const start = records.find((r): r is RunStartRecord => r.type === "run_start");
  if (!start) throw new ConversationError("the trajectory has no run_start record");
  const turns = records.filter((r): r is TurnRecord => r.type === "turn");
  const neutral: Message[] = [];
  let request: Message[] = [];
  for (const [index, turn] of turns.entries()) {
    const { first_change, messages_from_first_change, message_count } = turn.request;
    // Every history keeps the task's message at position 0; a later request that changes it starts a
    // conversation of its own (a workflow's separate calls, as agentless makes). Splicing it into the
    // first would make a transcript no model ever saw.
    if (index > 0 && first_change === 0)
      throw new ConversationError(
        `turn ${turn.step} starts a new conversation: the run made separate model calls (a workflow such as agentless), not one conversation — exporting those calls is not supported yet`,
      );
    if (first_change > request.length)
      throw new ConversationError(
        `turn ${turn.step} reuses ${first_change} messages of a request that had ${request.length}: a turn is missing`,
      );
    request = [...request.slice(0, first_change), ...messages_from_first_change];
    if (request.length !== message_count)
      throw new ConversationError(
        `turn ${turn.step} rebuilds ${request.length} messages where it recorded ${message_count}`,
      );
    for (let i = neutral.length; i < request.length; i++) neutral.push(request[i] as Message);
  }
  const last = turns.at(-1);
  if (last) {
    neutral.push(last.response);
    for (const action of last.actions)
      neutral.push({
        role: "tool",
        toolCallId: action.call.id,
        content: action.observation,
        ...(action.error !== null ? { isError: true } : {}),
      });
  }
  const system = [start.system, start.memory].filter((t) => t !== "").join("\n\n");
  const messages: ChatMessage[] = system ? [{ role: "system", content: system }] : [];
  messages.push(...neutral.map(toChat));
  return {
    messages,
    mask: messages.map((m) => (m.role === "assistant" ? 1 : 0)),
    tools: (start.tool_specs ?? []).map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    })),
    policy: start.policy ?? null,
    history: start.history ?? null,
    model: last?.model ?? null,
  };
}

function imageRefs(images: ImagePart[] | undefined) {
  return images?.length
    ? { images: images.map((i) => ({ ref: i.ref ?? "(not saved)", width: i.width, height: i.height })) }
    : {};
}

/** A call whose arguments did not parse keeps the text the model wrote: it is what the policy sampled. */
function argumentsText(call: ToolCall): string {
  return call.parseError !== undefined && typeof call.input === "string"
    ? call.input
    : JSON.stringify(call.input ?? {});
}

function toChat(message: Message): ChatMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content, ...imageRefs(message.images) };
    case "assistant":
      if (message.toolCalls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: "function" as const,
          function: { name: call.name, arguments: argumentsText(call) },
        })),
      };
    case "tool":
      return {
        role: "tool",
        tool_call_id: message.toolCallId,
        content: message.content,
        ...imageRefs(message.images),
      };
  }
}
