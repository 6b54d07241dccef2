import type { Ledger } from "../ledger/index.js";
import type { Usage } from "../messages/index.js";
import type { BaseToolContext } from "../tools/index.js";
import type { Limits, StopReason } from "./types.js";

/** The limit a run has reached before its next request, if any. */
export function limitReached(
  limits: Limits,
  ledger: Ledger,
  steps: number,
  elapsedMs: number,
  signal: AbortSignal | undefined,
): { reason: StopReason; detail: string } | undefined {
  if (signal?.aborted) return { reason: "aborted", detail: "the run was interrupted" };
  if (steps >= limits.maxSteps)
    return { reason: "step_limit", detail: `reached the step cap of ${limits.maxSteps}` };
  if (elapsedMs >= limits.wallClockMs) return timeLimitStop(limits, elapsedMs);
  const budget = limits.budgetUsd;
  if (budget !== undefined && ledger.knownCostUsd >= budget) {
    return { reason: "budget", detail: `spent $${ledger.knownCostUsd.toFixed(4)} of the $${budget} budget` };
  }
  return undefined;
}

/** The ledger's token totals as a run reports them. */
export function usageOf(ledger: Ledger): Usage {
  const t = ledger.totals;
  return {
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    cacheReadTokens: t.cacheReadTokens,
    cacheWriteTokens: t.cacheWriteTokens,
    ...(t.estimated ? { estimated: true } : {}),
  };
}

/**
 * The run's wall clock as a deadline on the tools' context, for the length of one run: a command
 * still running at the deadline is killed by its sandbox timeout instead of holding the run past its
 * limit. Never later than a deadline the context already has (a subagent inside a run ends with it).
 * Returns how to put the context back as it was (a conversation reuses its context turn after turn).
 */
export function holdDeadline(ctx: BaseToolContext, wallClockMs: number, now = Date.now()): () => void {
  const previous = ctx.deadline;
  ctx.deadline = Math.min(previous ?? Number.POSITIVE_INFINITY, now + wallClockMs);
  return () => {
    if (previous === undefined) delete ctx.deadline;
    else ctx.deadline = previous;
  };
}

/**
 * The signal a model call gets: the user's abort, or the run's deadline passing mid-call. `expired()`
 * tells the two apart afterwards, so a call cut by the deadline ends the run as `time_limit`.
 */
export function callSignal(
  deadline: number | undefined,
  signal: AbortSignal | undefined,
  now = Date.now(),
): { signal: AbortSignal | undefined; expired: () => boolean } {
  if (deadline === undefined || !Number.isFinite(deadline)) return { signal, expired: () => false };
  const clock = AbortSignal.timeout(Math.max(0, deadline - now));
  return {
    signal: signal ? AbortSignal.any([signal, clock]) : clock,
    expired: () => clock.aborted,
  };
}

/** A deadline set from outside this run (the run a subagent is part of) that has passed. */
export function pastDeadline(
  deadline: number | undefined,
  now = Date.now(),
): { reason: StopReason; detail: string } | undefined {
  return deadline !== undefined && now >= deadline
    ? { reason: "time_limit", detail: "the wall-clock limit of the run this one is part of has passed" }
    : undefined;
}

/** The time_limit stop, in the words every kind uses. */
export function timeLimitStop(limits: Limits, elapsedMs: number): { reason: StopReason; detail: string } {
  return {
    reason: "time_limit",
    detail: `ran for ${(elapsedMs / 1000).toFixed(1)} s, the limit is ${limits.wallClockMs / 1000} s`,
  };
}
