import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import {
  type AssistantMessage,
  estimateTokens,
  type Message,
  type ToolCall,
  type Usage,
} from "../messages/index.js";
import { type Policy, PolicyError, type PolicyReply, type PolicyRequest } from "./types.js";

const Condition = z.union([
  z.object({ contains: z.string() }).strict(),
  z.object({ notContains: z.string() }).strict(),
]);

const Call = z.object({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) });

const Turn = z.union([
  Call.extend({ thought: z.string().default(""), when: Condition.optional() }).strict(),
  // A reply without a tool call: a conversation's answer (`acilab agent`), a subagent's summary.
  z.object({ say: z.string(), when: Condition.optional() }).strict(),
  z
    .object({ thought: z.string().default(""), when: Condition.optional(), calls: z.array(Call).min(1) })
    .strict(),
]);

export const ScriptFile = z.object({
  description: z.string().optional(),
  turns: z.array(Turn).min(1),
});
export type ScriptFile = z.infer<typeof ScriptFile>;
type ScriptTurn = z.infer<typeof Turn>;

export function loadScript(path: string): ScriptFile {
  if (!existsSync(path))
    throw new Error(`script ${path} does not exist; pass scripted:<file.json> with a script file`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`script ${path} is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = ScriptFile.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `script ${path} does not match the script format:\n${z.prettifyError(parsed.error)}\nSee docs/policies.md.`,
    );
  }
  return parsed.data;
}

/** The text of the most recent observation(s): every tool result after the last assistant message. */
function lastObservation(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m || m.role === "assistant") break;
    if (m.role === "tool" || m.role === "user") parts.unshift(m.content);
  }
  return parts.join("\n");
}

function conditionHolds(turn: ScriptTurn, observation: string): boolean {
  if (!turn.when) return true;
  return "contains" in turn.when
    ? observation.includes(turn.when.contains)
    : !observation.includes(turn.when.notContains);
}

/** Estimated usage so scripted runs can still compare how much a model would have read and written. */
export function estimateUsage(request: PolicyRequest, reply: AssistantMessage): Usage {
  const input =
    estimateTokens(request.system) +
    estimateTokens(request.memory) +
    estimateTokens(JSON.stringify(request.tools)) +
    request.messages.reduce((n, m) => n + estimateTokens(JSON.stringify(m)), 0);
  return {
    inputTokens: input,
    outputTokens: estimateTokens(reply.content) + estimateTokens(JSON.stringify(reply.toolCalls)),
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    estimated: true,
  };
}

/**
 * A policy that plays a list of tool calls. The loop, tools, sandbox and grader around it are real;
 * only the choice of action is fixed. A turn with `when` runs only if the previous observation
 * matches, so a script can react (e.g. retry a fix only if the tests still fail).
 */
export class ScriptedPolicy implements Policy {
  readonly model = undefined;
  private cursor = 0;
  private callCounter = 0;

  constructor(
    readonly spec: string,
    private readonly script: ScriptFile,
  ) {}

  async next(request: PolicyRequest): Promise<PolicyReply> {
    const observation = lastObservation(request.messages);
    while (this.cursor < this.script.turns.length) {
      const turn = this.script.turns[this.cursor++] as ScriptTurn;
      if (!conditionHolds(turn, observation)) continue;
      if ("say" in turn) {
        const message: AssistantMessage = { role: "assistant", content: turn.say, toolCalls: [] };
        return {
          message,
          usage: estimateUsage(request, message),
          model: "scripted",
          finishReason: "end_turn",
        };
      }
      const calls = "calls" in turn ? turn.calls : [{ tool: turn.tool, input: turn.input }];
      const toolCalls: ToolCall[] = calls.map((c) => ({
        id: `call_${++this.callCounter}`,
        name: c.tool,
        input: c.input,
      }));
      const message: AssistantMessage = { role: "assistant", content: turn.thought, toolCalls };
      return { message, usage: estimateUsage(request, message), model: "scripted", finishReason: "tool_use" };
    }
    throw new PolicyError(
      "script_exhausted",
      `${this.spec}: the script has no more turns (it played ${this.script.turns.length}) and the agent has not submitted; end the script with a submit call`,
    );
  }
}
