/**
 * A conversation with the agent over the user's repository: each user turn runs the loop until the
 * agent answers (a reply without a tool call), in a sandboxed copy-on-write checkout; the session is
 * saved after every turn. Interactive and headless front ends drive the same object.
 */
import { join } from "node:path";
import {
  type GateOptions,
  makeGate,
  preCompactHook,
  preToolUse,
  type RunHooks,
  withPostToolUse,
} from "../harness/index.js";
import { keepAll } from "../history/index.js";
import type { Ledger } from "../ledger/index.js";
import {
  type CompactionOptions,
  compactNow,
  DEFAULT_LIMITS,
  type Limits,
  type RunOutcome,
  runAgent,
  runEndRecord,
  runStartRecord,
} from "../loop/index.js";
import type { Policy } from "../policies/index.js";
import { type AnyTool, newEditorState, type PermissionHook, ToolRegistry } from "../tools/index.js";
import { type TrajectorySink, TrajectoryWriter } from "../trajectory/index.js";
import { applyToTree, type SessionChanges, sessionChanges } from "./apply.js";
import { type Checkpoint, Checkpoints } from "./checkpoints.js";
import { type AgentEvents, observedPolicy, teeTrajectory } from "./events.js";
import type { Session } from "./sessions.js";
import type { AgentWorkspace } from "./workspace.js";

/** Output tokens per reply: a file or a long answer at most. */
export const AGENT_MAX_OUTPUT_TOKENS = 8192;

/** How often a Stop hook may send the agent back to work in one turn. */
export const MAX_STOP_CONTINUATIONS = 3;

export interface ConversationOptions {
  workspace: AgentWorkspace;
  session: Session;
  policy: Policy;
  ledger: Ledger;
  events: AgentEvents;
  /** The agent's tools (workspace tools and the harness's own: todo_write, task, repo_map). */
  tools: readonly AnyTool[];
  system: string;
  memory: string;
  rules: GateOptions["rules"];
  hooks: RunHooks;
  permissionMode: string;
  interactive: boolean;
  allowAsk?: boolean;
  limits?: Partial<Limits>;
  /** The model's context window: compaction starts near it. */
  contextTokens: number;
  commandTimeoutMs?: number;
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

export interface TurnResult {
  outcome: RunOutcome;
  /** The agent's answer (its last reply's text), "" when it stopped without one. */
  answer: string;
}

export class PromptBlocked extends Error {
  override name = "PromptBlocked";
}

export class Conversation {
  readonly checkpoints: Checkpoints;
  readonly denials: Array<{ tool: string; input: unknown; reason: string }> = [];
  private readonly registry: ToolRegistry;
  private readonly permission: PermissionHook;
  private readonly trajectory: TrajectorySink;
  private promptIndex = 0;
  /** This turn's interrupt (Ctrl-C in the terminal), else the conversation's. */
  private turnSignal: AbortSignal | undefined;

  constructor(private readonly o: ConversationOptions) {
    this.checkpoints = new Checkpoints(o.workspace, o.session.checkpointDir);
    const file = new TrajectoryWriter(o.session.trajectoryFile);
    this.trajectory = teeTrajectory(
      {
        write: (record) => {
          file.write(record);
          // A summary drops messages: the checkpoints' places in the conversation are gone with them.
          if (record.type === "compaction" && record.stage === "summarised")
            this.checkpoints.forgetConversation();
        },
      },
      o.events,
    );
    const payload = (extra: Record<string, unknown>) => this.payload(extra);
    const notice = (text: string) => o.events.notice(text);
    this.registry = new ToolRegistry(withPostToolUse(o.tools, o.hooks, payload, notice));
    this.permission = makeGate({
      kindOf: (name) => this.registry.get(name)?.kind,
      rules: o.rules,
      preToolUse: preToolUse(o.hooks, payload, notice),
      interactive: o.interactive,
      ...(o.allowAsk !== undefined ? { allowAsk: o.allowAsk } : {}),
      ...(o.events.approve ? { approve: o.events.approve.bind(o.events) } : {}),
      checkpoint: async (label) => {
        await this.checkpoints.take(label, this.promptIndex);
      },
      denied: (d) => this.denials.push(d),
    });
  }

  get session(): Session {
    return this.o.session;
  }
  get toolNames(): string[] {
    return this.registry.names;
  }

  /** The fields every hook's stdin carries (Claude Code's names). */
  payload(extra: Record<string, unknown>): Record<string, unknown> {
    return {
      session_id: this.o.session.id,
      transcript_path: this.o.session.trajectoryFile,
      cwd: this.o.workspace.repo,
      permission_mode: this.o.permissionMode,
      ...extra,
    };
  }

  /** SessionStart: what its hooks print joins the conversation as context. */
  async start(source: "startup" | "resume"): Promise<void> {
    const out = await this.o.hooks("SessionStart", this.payload({ hook_event_name: "SessionStart", source }));
    this.noticeErrors(out.errors);
    if (out.additionalContext)
      this.o.session.conversation.push({
        role: "user",
        content: `Context from a SessionStart hook:\n${out.additionalContext}`,
      });
  }

  /** One user turn: hooks, then the loop until the agent answers (or a limit), then the session saved. */
  async turn(prompt: string, signal?: AbortSignal): Promise<TurnResult> {
    this.turnSignal = signal ?? this.o.signal;
    const submitted = await this.o.hooks("UserPromptSubmit", this.payload({ prompt }));
    this.noticeErrors(submitted.errors);
    if (submitted.block !== undefined)
      throw new PromptBlocked(`a UserPromptSubmit hook blocked the prompt: ${submitted.block}`);
    const conversation = this.o.session.conversation;
    this.promptIndex = conversation.length;
    let task = submitted.additionalContext ? `${prompt}\n\n${submitted.additionalContext}` : prompt;
    let outcome: RunOutcome;
    for (let round = 0; ; round++) {
      outcome = await this.runLoop(task);
      if (outcome.stopReason !== "submitted" || round >= MAX_STOP_CONTINUATIONS) break;
      const stop = await this.o.hooks("Stop", this.payload({ stop_hook_active: round > 0 }));
      this.noticeErrors(stop.errors);
      if (stop.block === undefined) break;
      this.o.events.notice(`Stop hook sent the agent back: ${stop.block}`);
      task = `A Stop hook did not let you finish yet: ${stop.block}`;
    }
    const meta = this.o.session.meta;
    this.o.session.meta = {
      ...meta,
      turns: meta.turns + 1,
      title: meta.title || (prompt.split("\n")[0] ?? "").slice(0, 80),
      cost_usd:
        meta.cost_usd === null || outcome.costUsd === undefined ? null : meta.cost_usd + outcome.costUsd,
    };
    await this.save();
    return { outcome, answer: outcome.stopReason === "submitted" ? (outcome.summary ?? "") : "" };
  }

  private async runLoop(task: string): Promise<RunOutcome> {
    const limits: Limits = { ...DEFAULT_LIMITS, ...this.o.limits };
    const { workspace: ws } = this.o;
    this.trajectory.write(
      runStartRecord({
        runId: this.o.session.id,
        task: "agent",
        policy: this.o.policy.spec,
        tools: "agent",
        history: "all",
        limits,
        system: this.o.system,
        memory: this.o.memory,
        toolSpecs: this.registry.specs(),
      }),
    );
    // Spend so far in this process: the ledger is shared by every turn, so the budget is the session's.
    const outcome = await runAgent({
      policy: observedPolicy(this.o.policy, this.o.events),
      tools: this.registry,
      context: {
        root: ws.root,
        gitDir: ws.gitDir,
        sandbox: ws.sandbox,
        editor: newEditorState(),
        testCommand: undefined,
        commandTimeoutMs: this.o.commandTimeoutMs ?? 120_000,
        permission: this.permission,
        ...(this.turnSignal ? { signal: this.turnSignal } : {}),
      },
      history: keepAll(),
      limits,
      ledger: this.o.ledger,
      trajectory: this.trajectory,
      system: this.o.system,
      memory: this.o.memory,
      task,
      maxOutputTokens: this.o.maxOutputTokens ?? AGENT_MAX_OUTPUT_TOKENS,
      conversation: this.o.session.conversation,
      answerEndsRun: true,
      compaction: this.compactionOptions(),
      ...(this.turnSignal ? { signal: this.turnSignal } : {}),
    });
    this.trajectory.write(runEndRecord(outcome));
    return outcome;
  }

  private compactionOptions(): CompactionOptions {
    return {
      contextTokens: this.o.contextTokens,
      preCompact: preCompactHook(
        this.o.hooks,
        () => this.payload({}),
        (text) => this.o.events.notice(text),
      ),
    };
  }

  /** `/compact`: clear old tool outputs and summarise the conversation now; a line saying what it did. */
  async compact(): Promise<string> {
    const result = await compactNow({
      messages: this.o.session.conversation,
      policy: this.o.policy,
      ledger: this.o.ledger,
      trajectory: this.trajectory,
      system: this.o.system,
      memory: this.o.memory,
      tools: this.registry.specs(),
      maxOutputTokens: this.o.maxOutputTokens ?? AGENT_MAX_OUTPUT_TOKENS,
      options: this.compactionOptions(),
    });
    await this.save();
    if (!result.compacted) return "Nothing to compact yet.";
    return `Compacted: about ${result.tokensBefore} → ${result.tokensAfter} tokens (${result.records.map((r) => r.stage).join(", ")}).`;
  }

  async changes(): Promise<SessionChanges> {
    return sessionChanges(this.o.workspace.checkout);
  }

  /** Files back to checkpoint `n`; with `conversation`, the conversation back to before that turn's prompt. */
  async rewind(
    n: number,
    conversation: boolean,
  ): Promise<{ files: string[]; checkpoint: Checkpoint; conversationRewound: boolean }> {
    const checkpoint = this.checkpoints.all.find((c) => c.n === n);
    const files = await this.checkpoints.restore(n);
    // After a summary the checkpoint's place in the conversation is gone: only its files come back.
    const conversationRewound = conversation && checkpoint !== undefined && checkpoint.promptIndex >= 0;
    if (conversationRewound) this.o.session.conversation.splice(checkpoint.promptIndex);
    await this.save();
    // restore() threw for a missing checkpoint, so it is there.
    return { files, checkpoint: checkpoint as Checkpoint, conversationRewound };
  }

  /** Undo the newest file change: back to the last checkpoint. */
  async undo(): Promise<{ files: string[]; checkpoint: Checkpoint } | undefined> {
    const last = this.checkpoints.all.at(-1);
    return last ? this.rewind(last.n, false) : undefined;
  }

  /** The changes to the user's real tree (refused whole on a conflict: ApplyConflict). */
  async apply(): Promise<string[]> {
    const applied = await applyToTree(this.o.workspace, this.o.session.patchFile);
    this.o.session.meta = { ...this.o.session.meta, applied: new Date().toISOString() };
    this.o.session.save();
    return applied;
  }

  async save(): Promise<void> {
    this.o.session.save((await this.changes()).patch);
  }

  /** Where subagents write their turns. */
  get subagentDir(): string {
    return join(this.o.session.dir, "subagents");
  }

  private noticeErrors(errors: readonly string[]): void {
    for (const e of errors) this.o.events.notice(e);
  }
}
