/**
 * The interactive conversation: the user's turns at a prompt, the agent's replies as they come,
 * approvals asked in line, and the slash commands. Ctrl-C stops the running turn (the session is
 * kept); at the prompt it ends the conversation like /quit. At the end the changes are shown and go
 * to the real tree only on --apply or the user's yes.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { ApplyConflict } from "./apply.js";
import { CheckpointError } from "./checkpoints.js";
import { PromptBlocked } from "./conversation.js";
import type { AgentStart } from "./start.js";
import { costLines, diffStat, quitLines } from "./summary.js";
import type { TerminalEvents } from "./terminal.js";

export const REPL_HELP = [
  "/diff                 the changes so far, as a patch",
  "/undo                 put the files back as they were before the last change",
  "/rewind [N] [both]    list checkpoints; restore files to checkpoint N (both: the conversation too)",
  "/cost                 tokens and dollars so far, per agent",
  "/todos                the agent's plan",
  "/compact              summarise the conversation so far to free context",
  "/quit                 end the session (you are asked whether to apply the changes)",
].join("\n");

export interface ReplIO {
  input: Readable;
  output: Writable;
  print(text: string): void;
}

export class Repl {
  private readonly lines: string[] = [];
  private waiting: ((line: string | null) => void) | undefined;
  private closed = false;
  private turn: AbortController | undefined;

  constructor(
    private readonly start: AgentStart,
    private readonly events: TerminalEvents,
    private readonly io: ReplIO,
    private readonly options: { apply: boolean },
  ) {}

  /** One line from the user, or null at the end of input. */
  readonly ask = (question: string): Promise<string | null> => {
    this.io.output.write(question);
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  };

  async run(firstPrompt: string | undefined): Promise<number> {
    const rl = createInterface({ input: this.io.input, terminal: false });
    rl.on("line", (line) => this.deliver(line));
    rl.on("close", () => {
      this.closed = true;
      this.deliver(null);
    });
    const onSigint = () => {
      if (this.turn) {
        this.io.print("! interrupted: the turn stops after the running call");
        this.turn.abort();
      } else this.deliver(null);
    };
    process.on("SIGINT", onSigint);
    try {
      const { session, workspace, policy, permissionMode, notices } = this.start;
      this.io.print(
        `acilab agent — ${workspace.repo}\nsession ${session.id}${this.start.resumed ? " (resumed)" : ""} · ${policy.spec} · permissions: ${permissionMode}`,
      );
      for (const n of notices) this.io.print(`! ${n}`);
      this.io.print("Type a request, or /help.");
      if (firstPrompt) await this.userTurn(firstPrompt);
      for (;;) {
        const line = await this.ask("> ");
        if (line === null) break;
        const text = line.trim();
        if (text === "") continue;
        if (text.startsWith("/")) {
          if (await this.command(text)) break;
        } else await this.userTurn(text);
      }
      return await this.finish();
    } finally {
      process.off("SIGINT", onSigint);
      rl.close();
    }
  }

  private deliver(line: string | null): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(line);
    else if (line !== null) this.lines.push(line);
  }

  private async userTurn(prompt: string): Promise<void> {
    this.turn = new AbortController();
    try {
      const { outcome } = await this.start.conversation.turn(prompt, this.turn.signal);
      if (outcome.stopReason !== "submitted")
        this.io.print(`! the agent stopped: ${outcome.stopReason} — ${outcome.detail}`);
    } catch (err) {
      if (err instanceof PromptBlocked) this.io.print(`! ${err.message}`);
      else throw err;
    } finally {
      this.turn = undefined;
    }
  }

  /** A slash command; true when it ends the conversation. */
  private async command(text: string): Promise<boolean> {
    const [name, ...args] = text.split(/\s+/);
    const c = this.start.conversation;
    switch (name) {
      case "/quit":
      case "/exit":
        return true;
      case "/help":
        this.io.print(REPL_HELP);
        return false;
      case "/diff": {
        const { patch } = await c.changes();
        this.io.print(patch === "" ? "No changes yet." : patch.trimEnd());
        return false;
      }
      case "/undo": {
        const undone = await c.undo();
        this.io.print(
          undone
            ? `Back to checkpoint ${undone.checkpoint.n} (before ${undone.checkpoint.label}): ${listFiles(undone.files)}`
            : "Nothing to undo: no file has changed yet.",
        );
        return false;
      }
      case "/rewind":
        await this.rewind(args);
        return false;
      case "/cost":
        for (const line of costLines(this.start.ledger)) this.io.print(line);
        return false;
      case "/todos":
        if (this.events.todosNow.length === 0) this.io.print("No plan yet.");
        else this.events.todos(this.events.todosNow);
        return false;
      case "/compact": {
        const done = await c.compact();
        this.io.print(done);
        return false;
      }
      default:
        this.io.print(`Unknown command ${name}. Commands:\n${REPL_HELP}`);
        return false;
    }
  }

  private async rewind(args: string[]): Promise<void> {
    const c = this.start.conversation;
    if (args.length === 0) {
      const all = c.checkpoints.all;
      if (all.length === 0) this.io.print("No checkpoints yet: one is taken before each change.");
      for (const cp of all)
        this.io.print(
          `  ${cp.n}. before ${cp.label} (${Object.keys(cp.files).length} file(s) changed by then)`,
        );
      return;
    }
    const n = Number(args[0]);
    try {
      const { files, checkpoint } = await c.rewind(n, args[1] === "both");
      this.io.print(
        `Rewound to checkpoint ${checkpoint.n} (before ${checkpoint.label})${args[1] === "both" ? ", conversation included" : ""}: ${listFiles(files)}`,
      );
    } catch (err) {
      if (err instanceof CheckpointError) this.io.print(`! ${err.message}`);
      else throw err;
    }
  }

  /** The end: what changed, applied on --apply or a yes, and how to come back. */
  private async finish(): Promise<number> {
    const c = this.start.conversation;
    await c.save();
    const changes = await c.changes();
    let code = 0;
    if (changes.files.length > 0) {
      this.io.print(diffStat(changes.patch));
      const yes =
        this.options.apply ||
        /^y(es)?$/i.test(
          (await this.ask(`Apply these changes to ${this.start.workspace.repo}? [y/N] `))?.trim() ?? "",
        );
      if (yes) {
        try {
          const applied = await c.apply();
          this.io.print(`Applied: ${listFiles(applied)}`);
        } catch (err) {
          if (!(err instanceof ApplyConflict)) throw err;
          this.io.print(`! ${err.message}`);
          code = 1;
        }
      } else this.io.print(`Not applied. The patch is in ${this.start.session.patchFile}.`);
    }
    for (const line of quitLines(this.start)) this.io.print(line);
    return code;
  }
}

function listFiles(files: readonly string[]): string {
  return files.length === 0 ? "no files" : files.join(", ");
}
