import type { HistoryProcessor } from "../history/index.js";
import { firstChange } from "../history/index.js";
import type { Ledger } from "../ledger/index.js";
import type { AssistantMessage, Message, Usage } from "../messages/index.js";
import { type Policy, PolicyError } from "../policies/types.js";
import { isFormatError, type ToolRegistry } from "../tools/registry.js";
import type { ToolContext } from "../tools/types.js";
import type { ActionRecord, TrajectorySink } from "../trajectory/index.js";
import { executeCalls } from "./actions.js";
import { ChangeTracker } from "./changes.js";
import type { Limits, RunOutcome, StopReason } from "./types.js";

export interface AgentRun {
  policy: Policy;
  tools: ToolRegistry;
  context: ToolContext;
  history: HistoryProcessor;
  limits: Limits;
  ledger: Ledger;
  trajectory: TrajectorySink;
  system: string;
  memory: string;
  task: string;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

const NO_TOOL_CALL =
  "error: your reply contained no tool call. Every turn must call exactly the tools you need; call submit when the task is done.";

/** The agent loop: ask the policy, run its calls, record the turn, check the limits. */
export async function runAgent(run: AgentRun): Promise<RunOutcome> {
  const started = performance.now();
  const messages: Message[] = [{ role: "user", content: run.task }];
  const overheadMs: number[] = [];
  let previousRequest: Message[] = [];
  let formatErrors = 0;
  let steps = 0;
  const changes = new ChangeTracker(run.context.root, run.context.gitDir);

  const finish = (stopReason: StopReason, detail: string): RunOutcome => ({
    stopReason,
    detail,
    steps,
    wallMs: performance.now() - started,
    usage: usageOf(run.ledger),
    costUsd: run.ledger.costComplete ? run.ledger.knownCostUsd : undefined,
    cacheBusts: run.ledger.cacheBusts,
    overheadMs,
  });

  for (;;) {
    const stop = checkLimits(run, steps, performance.now() - started);
    if (stop) return finish(stop.reason, stop.detail);

    const turnStart = performance.now();
    const request = run.history.apply(messages, steps + 1);
    const shared = firstChange(previousRequest, request);
    const previousLength = previousRequest.length;
    previousRequest = request;
    let reply: Awaited<ReturnType<Policy["next"]>>;
    const modelStart = performance.now();
    try {
      reply = await run.policy.next(
        {
          system: run.system,
          tools: run.tools.specs(),
          memory: run.memory,
          messages: request,
          maxOutputTokens: run.maxOutputTokens,
        },
        run.signal,
      );
    } catch (err) {
      if (run.signal?.aborted) return finish("aborted", "the run was interrupted");
      if (err instanceof PolicyError) return finish("policy_error", err.message);
      throw err;
    }
    const modelMs = performance.now() - modelStart;
    steps += 1;
    const { costUsd } = run.ledger.record({
      model: run.policy.model ?? reply.model,
      usage: reply.usage,
      latencyMs: modelMs,
      // A history processor that rewrote an earlier message busts the cache on purpose.
      appendOnly: shared >= previousLength,
    });
    messages.push(reply.message);

    const { actions, toolMs, submitted, allInvalid } = await executeCalls(
      reply.message,
      run.tools,
      run.context,
      changes,
    );
    for (const action of actions) {
      messages.push({
        role: "tool",
        toolCallId: action.call.id,
        content: action.observation,
        ...(action.error ? { isError: true } : {}),
      });
    }
    const formatError = formatErrorOf(reply.message, allInvalid);
    if (formatError === NO_TOOL_CALL) messages.push({ role: "user", content: NO_TOOL_CALL });
    formatErrors = formatError ? formatErrors + 1 : 0;

    overheadMs.push(performance.now() - turnStart - modelMs - toolMs);
    run.trajectory.write({
      type: "turn",
      step: steps,
      request: {
        message_count: request.length,
        first_change: shared,
        messages_from_first_change: request.slice(shared),
      },
      response: reply.message,
      model: reply.model,
      finish_reason: reply.finishReason,
      usage: reply.usage,
      cost_usd: costUsd ?? null,
      latency_ms: Math.round(modelMs),
      actions,
      format_error: formatError,
      overhead_ms: overheadMs[overheadMs.length - 1] ?? 0,
    });

    if (submitted) return finish("submitted", "the agent called submit");
    if (formatErrors >= run.limits.maxFormatErrors) {
      return finish("format_errors", `${formatErrors} malformed responses in a row (last: ${formatError})`);
    }
  }
}

function usageOf(ledger: Ledger): Usage {
  const t = ledger.totals;
  return {
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    cacheReadTokens: t.cacheReadTokens,
    cacheWriteTokens: t.cacheWriteTokens,
    ...(t.estimated ? { estimated: true } : {}),
  };
}

function checkLimits(
  run: AgentRun,
  steps: number,
  elapsedMs: number,
): { reason: StopReason; detail: string } | undefined {
  if (run.signal?.aborted) return { reason: "aborted", detail: "the run was interrupted" };
  if (steps >= run.limits.maxSteps)
    return { reason: "step_limit", detail: `reached the step cap of ${run.limits.maxSteps}` };
  if (elapsedMs >= run.limits.wallClockMs) {
    return {
      reason: "time_limit",
      detail: `ran for ${(elapsedMs / 1000).toFixed(1)} s, the limit is ${run.limits.wallClockMs / 1000} s`,
    };
  }
  const budget = run.limits.budgetUsd;
  if (budget !== undefined && run.ledger.knownCostUsd >= budget) {
    return {
      reason: "budget",
      detail: `spent $${run.ledger.knownCostUsd.toFixed(4)} of the $${budget} budget`,
    };
  }
  return undefined;
}

function formatErrorOf(message: AssistantMessage, allInvalid: boolean): string | null {
  if (message.toolCalls.length === 0) return NO_TOOL_CALL;
  return allInvalid ? "every tool call in the reply was invalid" : null;
}

export type { ActionRecord };
export { isFormatError };
