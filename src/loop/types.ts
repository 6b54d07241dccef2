import type { ImagePart, Usage } from "../messages/index.js";
import type { ToolResult } from "../tools/index.js";
import type { ActionRecord } from "../trajectory/index.js";

/**
 * Every way a run of any kind (coding, tool task, computer use) can end. A switch over this is
 * exhaustive, and every run records exactly one. docs/trajectory.md lists them for users.
 */
export type StopReason =
  | "submitted" // the agent said it was finished: `submit` (coding, tool tasks) or `done` (computer use)
  | "step_limit" // the step cap was reached
  | "budget" // the dollar budget was spent
  | "time_limit" // the wall clock ran out
  | "format_errors" // too many malformed responses in a row
  | "stalled" // computer use: several steps in a row without a visible change
  | "repeated" // computer use: the same action too many times in a row
  | "policy_error" // the model provider failed after retries, or a script ran out
  | "env_error" // computer use: the environment itself failed (browser crashed, X server gone)
  | "task_error" // computer use: the task itself is broken (its file, its app, its setup or instruction in the page)
  | "page_misbehaved" // computer use: the page did what no app should (dialog loop, popup flood, endless load, renderer crash)
  | "aborted"; // the user interrupted the run

export const STOP_REASONS: readonly StopReason[] = [
  "submitted",
  "step_limit",
  "budget",
  "time_limit",
  "format_errors",
  "stalled",
  "repeated",
  "policy_error",
  "env_error",
  "task_error",
  "page_misbehaved",
  "aborted",
];

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

/**
 * The limits a person asked for, as the loop takes them: steps, dollars and a wall clock in seconds
 * (the CLI's --max-steps/--budget/--timeout, an experiment arm's max_steps/budget_usd/timeout_s);
 * what was not asked for keeps its default.
 */
export function limitsFrom(asked: {
  maxSteps?: number | undefined;
  budgetUsd?: number | undefined;
  timeoutS?: number | undefined;
}): Partial<Limits> {
  return {
    ...(asked.maxSteps !== undefined ? { maxSteps: asked.maxSteps } : {}),
    ...(asked.budgetUsd !== undefined ? { budgetUsd: asked.budgetUsd } : {}),
    ...(asked.timeoutS !== undefined ? { wallClockMs: asked.timeoutS * 1000 } : {}),
  };
}

export const DEFAULT_LIMITS: Limits = {
  maxSteps: 50,
  budgetUsd: 2,
  wallClockMs: 30 * 60_000,
  maxFormatErrors: 3,
};

/**
 * Computer use: fewer, dearer steps, each carrying a screenshot. A built-in task takes 3–10 steps; 30
 * leaves room to recover from a few misclicks, and the budget bounds what a long turn costs.
 */
export const DEFAULT_CUA_LIMITS: Limits = {
  maxSteps: 30,
  budgetUsd: 1.5,
  wallClockMs: 10 * 60_000,
  maxFormatErrors: 3,
};

export interface RunOutcome {
  stopReason: StopReason;
  /** A sentence for people: which limit, which error, or the agent's own summary when it submitted one. */
  detail: string;
  /** The summary the agent submitted with (computer use's `done`), when it gave one. */
  summary?: string;
  steps: number;
  wallMs: number;
  usage: Usage;
  costUsd: number | undefined;
  cacheBusts: number;
  /** Per-step harness overhead (ms), excluding model and tool time and the observer's environment time. */
  overheadMs: number[];
}

/** Text and images an observer adds to what the model reads. */
export interface Observation {
  text?: string;
  images?: ImagePart[];
}

/** What an observer saw after a turn. */
export interface TurnObservation extends Observation {
  /** Extra fields for the turn's trajectory record (computer use: `cua`). */
  record?: Record<string, unknown>;
  /** Ends the run after this turn (computer use: the screen stalled, or the same action repeated). */
  stop?: { reason: StopReason; detail: string };
  /** Time spent waiting on the environment (a capture), left out of the harness overhead like tool time. */
  envMs?: number;
}

/**
 * Thrown by an observer (or an environment behind it) that knows why the run must end — not because
 * the environment failed, but because of what it saw (a page that loops on dialogs): the run ends
 * with this reason and detail instead of `env_error`.
 */
export class ObserverStop extends Error {
  constructor(
    readonly reason: StopReason,
    readonly detail: string,
  ) {
    super(detail);
    this.name = "ObserverStop";
  }
}

/**
 * The world outside the tools, seen once before the first request and after every turn (computer use:
 * the screen). It is the only hook the loop has besides the tools: everything environment-specific —
 * capturing, stall and repeat detection — lives behind it. An exception from it means the
 * environment itself failed: the run ends with `env_error` (an ObserverStop: with its own reason).
 */
export interface RunObserver {
  /** Names the environment in the env_error detail: "browser environment failed: …". */
  readonly environment: string;
  /** Added to the opening message (computer use: the first screenshot and the screen's text). */
  begin(): Promise<Observation>;
  /**
   * After each turn's calls ran. `step` is the turn's number as its trajectory record has it
   * (1-based); `actions` and `results` are the calls that ran, in order. Text and images go to the
   * observation of the last call that ran.
   */
  afterTurn(turn: {
    step: number;
    actions: readonly ActionRecord[];
    results: readonly ToolResult[];
  }): Promise<TurnObservation>;
}
