import type { RunEndRecord } from "../trajectory/index.js";
import type { RunOutcome } from "./types.js";

/** The trajectory's closing record for a finished loop. */
export function runEndRecord(outcome: RunOutcome): RunEndRecord {
  return {
    type: "run_end",
    stop_reason: outcome.stopReason,
    detail: outcome.detail,
    steps: outcome.steps,
    wall_s: outcome.wallMs / 1000,
    usage: outcome.usage,
    cost_usd: outcome.costUsd ?? null,
    cache_busts: outcome.cacheBusts,
  };
}
