import type { HistoryProcessor } from "../history/index.js";
import { firstChange } from "../history/index.js";
import type { Ledger } from "../ledger/index.js";
import type { AssistantMessage, ImagePart, Message } from "../messages/index.js";
import { type Policy, PolicyError } from "../policies/index.js";
import type { BaseToolContext, ToolContext } from "../tools/index.js";
import { isFormatError, type ToolRegistry } from "../tools/index.js";
import type { ActionRecord, TrajectorySink } from "../trajectory/index.js";
import { type ExecutedCalls, executeCalls } from "./actions.js";
import { ChangeTracker } from "./changes.js";
import { type CompactionOptions, type CompactionTarget, inputTokensOf, maybeCompact } from "./compaction.js";
import { callSignal, holdDeadline, limitReached, pastDeadline, timeLimitStop, usageOf } from "./limits.js";
import { turnRecord } from "./records.js";
import {
  type Limits,
  type Observation,
  ObserverStop,
  type RunObserver,
  type RunOutcome,
  type StopReason,
  type TurnObservation,
} from "./types.js";

export interface AgentRun<C extends BaseToolContext = ToolContext> {
  policy: Policy;
  tools: ToolRegistry<C>;
  context: C;
  history: HistoryProcessor;
  limits: Limits;
  ledger: Ledger;
  trajectory: TrajectorySink;
  system: string;
  memory: string;
  /** The opening message's text; an observer adds its own text and images after it. */
  task: string;
  maxOutputTokens: number;
  signal?: AbortSignal;
  /** The world outside the tools (computer use: the screen), seen before the first turn and after each. */
  observer?: RunObserver;
  /** Calls run per reply; the rest are answered "not run" (computer use: 1). Default: every call. */
  maxCallsPerTurn?: number;
  /** What the model is told when a reply calls no tool (default: the coding wording). */
  noToolCall?: string;
  /**
   * A conversation (`acilab agent`): the messages so far, before this turn's `task`. The loop appends
   * to this array in place, so the caller holds the whole conversation when the run ends.
   */
  conversation?: Message[];
  /**
   * A reply without a tool call is the agent's answer and ends the run as "submitted" (a
   * conversation's turn, a subagent's summary) instead of a format error.
   */
  answerEndsRun?: boolean;
  /** The ledger's name for this agent (a subagent's `task-1`); undefined = the run's own agent. */
  agent?: string;
  /** Near the model's context window, clear old tool outputs, then summarise (compaction.ts); absent = never. */
  compaction?: CompactionOptions;
}

const NO_TOOL_CALL =
  "error: your reply contained no tool call. Every turn must call exactly the tools you need; call submit when the task is done.";

/**
 * The agent loop: ask the policy, run its calls, let the observer look, record the turn, check the
 * limits. The wall clock is also a deadline on the tools' context while it runs: a command or a model
 * call still running when it passes is cut there, not at the end of the step.
 */
export async function runAgent<C extends BaseToolContext>(run: AgentRun<C>): Promise<RunOutcome> {
  const release = holdDeadline(run.context, run.limits.wallClockMs);
  try {
    return await loop(run);
  } finally {
    release();
  }
}

async function loop<C extends BaseToolContext>(run: AgentRun<C>): Promise<RunOutcome> {
  const started = performance.now();
  const overheadMs: number[] = [];
  let previousRequest: Message[] = [];
  let formatErrors = 0;
  let steps = 0;
  /** The last request's input tokens as the provider counted them; stale once compaction rewrote the history. */
  let knownInput: number | undefined;
  const changes = workspaceChanges(run.context);

  const finish = (stopReason: StopReason, detail: string, summary?: string): RunOutcome => ({
    stopReason,
    detail,
    ...(summary !== undefined ? { summary } : {}),
    steps,
    wallMs: performance.now() - started,
    usage: usageOf(run.ledger),
    costUsd: run.ledger.totalCostUsd,
    cacheBusts: run.ledger.cacheBusts,
    overheadMs,
  });
  // The observer throws only when its environment failed (or the user's abort closed it).
  const observerFailed = (err: unknown): RunOutcome =>
    run.signal?.aborted
      ? finish("aborted", "the run was interrupted")
      : err instanceof ObserverStop
        ? finish(err.reason, err.detail)
        : finish("env_error", `${run.observer?.environment} environment failed: ${messageOf(err)}`);

  const messages: Message[] = run.conversation ?? [];
  try {
    messages.push(openingMessage(run.task, await run.observer?.begin()));
  } catch (err) {
    return observerFailed(err);
  }

  const limit = () =>
    limitReached(run.limits, run.ledger, steps, performance.now() - started, run.signal) ??
    pastDeadline(run.context.deadline);
  for (;;) {
    let stop = limit();
    if (!stop && run.compaction) {
      try {
        const { compacted } = await maybeCompact(compactionTarget(run, messages, run.compaction, knownInput));
        if (compacted) {
          knownInput = undefined;
          stop = limit(); // the summary request was paid for: the budget must still hold
        }
      } catch (err) {
        if (run.signal?.aborted) return finish("aborted", "the run was interrupted");
        if (err instanceof PolicyError) return finish("policy_error", `compaction failed: ${err.message}`);
        throw err;
      }
    }
    if (stop) return finish(stop.reason, stop.detail);

    const turnStart = performance.now();
    // `steps` is the 0-based index of this request, the history contract on every path.
    const request = run.history.apply(messages, steps);
    const shared = firstChange(previousRequest, request);
    const appendOnly = shared >= previousRequest.length;
    previousRequest = request;
    let reply: Awaited<ReturnType<Policy["next"]>>;
    const modelStart = performance.now();
    const call = callSignal(run.context.deadline, run.signal);
    try {
      reply = await run.policy.next(
        {
          system: run.system,
          tools: run.tools.specs(),
          memory: run.memory,
          messages: request,
          maxOutputTokens: run.maxOutputTokens,
        },
        call.signal,
      );
    } catch (err) {
      if (run.signal?.aborted) return finish("aborted", "the run was interrupted");
      if (call.expired()) {
        const stop = timeLimitStop(run.limits, performance.now() - started);
        return finish(stop.reason, `${stop.detail} (the model call in flight was cut)`);
      }
      if (err instanceof PolicyError) return finish("policy_error", err.message);
      throw err;
    }
    const modelMs = performance.now() - modelStart;
    steps += 1;
    knownInput = inputTokensOf(reply.usage);
    const model = run.policy.model ?? reply.model;
    // A history processor that rewrote an earlier message busts the cache on purpose.
    const { costUsd } = run.ledger.record({
      model,
      usage: reply.usage,
      latencyMs: modelMs,
      appendOnly,
      ...(run.agent !== undefined ? { agent: run.agent } : {}),
    });
    messages.push(reply.message);

    const calls = await executeCalls(reply.message, run.tools, run.context, {
      changes,
      maxCalls: run.maxCallsPerTurn,
    });
    let seen: TurnObservation = {};
    try {
      seen = (await run.observer?.afterTurn({ step: steps, ...ranOf(calls) })) ?? {};
    } catch (err) {
      return observerFailed(err);
    }
    messages.push(...toolMessages(calls, seen));
    const answered = run.answerEndsRun === true && reply.message.toolCalls.length === 0;
    const formatError = answered ? null : formatErrorOf(reply.message, calls);
    if (reply.message.toolCalls.length === 0 && !answered)
      messages.push({ role: "user", content: run.noToolCall ?? NO_TOOL_CALL });
    formatErrors = formatError ? formatErrors + 1 : 0;

    overheadMs.push(performance.now() - turnStart - modelMs - calls.toolMs - (seen.envMs ?? 0));
    run.trajectory.write(
      turnRecord({
        step: steps,
        request,
        firstChange: shared,
        reply,
        costUsd,
        modelMs,
        actions: calls.actions,
        formatError,
        overheadMs: overheadMs[overheadMs.length - 1] ?? 0,
        extra: seen.record,
      }),
    );

    if (answered) {
      const text = reply.message.content.trim();
      return finish("submitted", text === "" ? "the agent answered" : firstLine(text), text);
    }
    const { submitted } = calls;
    if (submitted)
      return finish("submitted", submitted.summary ?? "the agent called submit", submitted.summary);
    if (formatErrors >= run.limits.maxFormatErrors) {
      return finish("format_errors", `${formatErrors} malformed responses in a row (last: ${formatError})`);
    }
    if (seen.stop) return finish(seen.stop.reason, seen.stop.detail);
  }
}

/** The opening user message: the task, then what the observer saw first (text after it, its images). */
function openingMessage(task: string, seen: Observation | undefined): Message {
  const content = seen?.text ? `${task}\n\n${seen.text}` : task;
  return { role: "user", content, ...(seen?.images?.length ? { images: seen.images } : {}) };
}

/** One tool message per call; the observer's text and images join the last call that ran. */
function toolMessages(calls: ExecutedCalls, seen: Observation): Message[] {
  const last = calls.ran - 1;
  return calls.actions.map((action, i) => {
    let images: ImagePart[] | undefined;
    if (i === last && (seen.text || seen.images?.length)) {
      // What the model read is what the trajectory keeps.
      action.observation = seen.text ? `${action.observation}\n\n${seen.text}` : action.observation;
      if (seen.images?.length) images = seen.images;
    }
    return {
      role: "tool",
      toolCallId: action.call.id,
      content: action.observation,
      ...(action.error ? { isError: true } : {}),
      ...(images ? { images } : {}),
    };
  });
}

function ranOf(calls: ExecutedCalls): {
  actions: readonly ActionRecord[];
  results: ExecutedCalls["results"];
} {
  return { actions: calls.actions.slice(0, calls.ran), results: calls.results };
}

function formatErrorOf(message: AssistantMessage, calls: ExecutedCalls): string | null {
  if (message.toolCalls.length === 0) return "no tool call";
  if (!calls.allInvalid) return null;
  const names = calls.actions.slice(0, calls.ran).map((a) => a.call.name);
  return names.length === 1 ? `invalid ${names[0]} call` : `invalid calls: ${names.join(", ")}`;
}

function compactionTarget<C extends BaseToolContext>(
  run: AgentRun<C>,
  messages: Message[],
  options: CompactionOptions,
  knownInputTokens: number | undefined,
): CompactionTarget {
  return {
    messages,
    policy: run.policy,
    ledger: run.ledger,
    trajectory: run.trajectory,
    system: run.system,
    memory: run.memory,
    tools: run.tools.specs(),
    maxOutputTokens: run.maxOutputTokens,
    options,
    ...(knownInputTokens !== undefined ? { knownInputTokens } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  };
}

/** File changes are tracked only where the tools act on a workspace (coding, tool tasks). */
function workspaceChanges(context: BaseToolContext): ChangeTracker | undefined {
  const { root, gitDir } = context as Partial<ToolContext>;
  return typeof root === "string" ? new ChangeTracker(root, gitDir) : undefined;
}

/** A run's detail is one line: an answer's first line, cut. */
function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export type { ActionRecord };
export { isFormatError };
