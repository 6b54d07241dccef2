import type { Ledger } from "../ledger/index.js";
import type { Usage } from "../messages/index.js";
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
  if (elapsedMs >= limits.wallClockMs) {
    return {
      reason: "time_limit",
      detail: `ran for ${(elapsedMs / 1000).toFixed(1)} s, the limit is ${limits.wallClockMs / 1000} s`,
    };
  }
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
