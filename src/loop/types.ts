import type { Usage } from "../messages/index.js";

/** Every way a run can end. A switch over this is exhaustive, and every run records exactly one. */
export type StopReason =
  | "submitted" // the agent called submit
  | "step_limit" // the step cap was reached
  | "budget" // the dollar budget was spent
  | "time_limit" // the wall clock ran out
  | "format_errors" // too many malformed responses in a row
  | "policy_error" // the model provider failed after retries, or a script ran out
  | "aborted"; // the user interrupted the run

export interface Limits {
  /** Model calls allowed (mini-SWE-agent uses 250 on SWE-bench; our tasks are small). */
  maxSteps: number;
  /** Dollars; undefined = no budget. Unknown prices never count as spent. */
  budgetUsd: number | undefined;
  /** Whole-run wall clock in milliseconds. */
  wallClockMs: number;
  /** Consecutive malformed responses before giving up (mini-SWE-agent: 3). */
  maxFormatErrors: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxSteps: 50,
  budgetUsd: 2,
  wallClockMs: 30 * 60_000,
  maxFormatErrors: 3,
};

export interface RunOutcome {
  stopReason: StopReason;
  /** A sentence for people: which limit, which error. */
  detail: string;
  steps: number;
  wallMs: number;
  usage: Usage;
  costUsd: number | undefined;
  cacheBusts: number;
  /** Per-step harness overhead (ms), excluding model and tool time. */
  overheadMs: number[];
}
