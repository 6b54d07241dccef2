/**
 * What the terminal shows of a conversation: each reply as it arrives (its text, then one line per
 * tool call), the first lines of each result, the plan when it changes, notices, and approvals asked
 * as a question. Plain lines, no cursor tricks, so a transcript reads the same in a pipe or tmux.
 */
import {
  type Approval,
  type ApprovalRequest,
  describeCall,
  renderTodos,
  type TodoItem,
} from "../harness/index.js";
import { MAIN_AGENT } from "../ledger/index.js";
import type { AssistantMessage, Usage } from "../messages/index.js";
import type { ToolResult } from "../tools/index.js";
import type { AgentEvents } from "./events.js";

/** Result lines shown per call: enough to see what happened; /diff and the trajectory have the rest. */
const RESULT_LINES = 4;
const LINE_CHARS = 160;

export type Ask = (question: string) => Promise<string | null>;

export class TerminalEvents implements AgentEvents {
  todosNow: readonly TodoItem[] = [];

  constructor(
    private readonly print: (text: string) => void,
    private readonly ask: Ask,
  ) {}

  assistant(
    message: AssistantMessage,
    reply: { usage: Usage; model: string; agent: string | undefined },
  ): void {
    const sub = reply.agent !== undefined && reply.agent !== MAIN_AGENT;
    const indent = sub ? `  [${reply.agent}] ` : "";
    if (message.content.trim() !== "") {
      for (const line of message.content.trim().split("\n")) this.print(`${indent}${line}`);
    }
    for (const call of message.toolCalls) this.print(`${indent}● ${describeCall(call.name, call.input)}`);
  }

  toolResult(call: { id: string; name: string }, result: ToolResult): void {
    if (call.name === "todo_write") return; // the plan is shown by todos()
    const lines = result.output.trimEnd().split("\n");
    const shown = lines
      .slice(0, RESULT_LINES)
      .map((l) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS)}…` : l));
    const mark = result.error ? `✗ ${result.error}: ` : "";
    shown.forEach((line, i) => {
      this.print(i === 0 ? `  ⎿ ${mark}${line}` : `    ${line}`);
    });
    if (lines.length > RESULT_LINES) this.print(`    … ${lines.length - RESULT_LINES} more line(s)`);
  }

  todos(items: readonly TodoItem[]): void {
    this.todosNow = items;
    this.print("Plan:");
    for (const line of renderTodos(items).split("\n")) this.print(`  ${line}`);
  }

  notice(text: string): void {
    this.print(`! ${text}`);
  }

  async approve(request: ApprovalRequest): Promise<Approval> {
    this.print(`? ${request.summary} needs your approval (${request.reason})`);
    for (;;) {
      const answer = (await this.ask("  allow? [y]es / [n]o / [a]lways for this session: "))
        ?.trim()
        .toLowerCase();
      if (answer === null || answer === undefined || answer === "n" || answer === "no") return "no";
      if (answer === "y" || answer === "yes") return "yes";
      if (answer === "a" || answer === "always") return "always";
    }
  }
}
