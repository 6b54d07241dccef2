/** The shapes around one computer-use episode: what goes in, what comes out, how it can end. */
import type { Ledger } from "../ledger/index.js";
import type { Usage } from "../messages/index.js";
import type { Policy } from "../policies/index.js";
import type { TrajectorySink } from "../trajectory/index.js";
import type { ConfirmHook, ConfirmRequest } from "./gate.js";
import type { ScreenshotHistory } from "./history.js";
import type { FrameCodec } from "./perceive.js";
import type { TierName, VisionTier } from "./scaling.js";
import type { Environment, EnvironmentStart, ObserveKind, Size, UiElement } from "./types.js";

/** Every way an episode ends; exactly one is recorded. */
export type CuaStopReason =
  | "done" // the model called done(summary)
  | "step_limit" // the step cap was reached
  | "budget" // the dollar budget was spent
  | "stalled" // four steps in a row without a visible change
  | "repeated" // the same action too many times in a row
  | "time_limit" // the wall clock ran out
  | "policy_error" // the provider failed after retries, or a script ran out / lost its target
  | "env_error" // the environment itself failed (browser crashed, X server gone)
  | "aborted"; // the caller's signal fired

export interface CuaLimits {
  /** Model calls allowed; seed 002's agent uses 30. */
  maxSteps: number;
  /** Dollars; undefined = no budget. Unknown prices never count as spent. */
  budgetUsd: number | undefined;
  wallClockMs: number;
}

export const DEFAULT_CUA_LIMITS: CuaLimits = { maxSteps: 30, budgetUsd: 1.5, wallClockMs: 10 * 60_000 };

/** The task as the loop needs it; the task catalogue owns the rest (grading, app state). */
export interface CuaTaskSpec {
  id: string;
  /** What the model is told, verbatim. */
  instruction: string;
  start: EnvironmentStart;
}

/**
 * What a privileged policy (scripted, a test oracle) may see of a frame: the elements with their
 * screen boxes and both sizes. Real models never get this; they get the observation.
 */
export interface PolicyFrame {
  step: number;
  observe: ObserveKind;
  screen: Size;
  model: Size;
  elements: readonly UiElement[];
  /** How many elements the observation numbered for click_element (0 for screenshot / dom). */
  numbered: number;
}

/** A policy that wants each frame before it is asked for the next action. */
export interface FrameAwarePolicy extends Policy {
  seeFrame(frame: PolicyFrame): void;
}

export function isFrameAware(policy: Policy): policy is FrameAwarePolicy {
  return typeof (policy as Partial<FrameAwarePolicy>).seeFrame === "function";
}

/** One saved frame, for contact sheets: the image the model saw after `step`'s action. */
export interface FrameRecord {
  step: number;
  /** Path of the PNG (absolute when frames were written, else undefined). */
  path: string | undefined;
  /** The action that led to this frame, one line (`start` for the first frame). */
  action: string;
  /** Perceptual delta from the previous frame (undefined for the first). */
  delta: number | undefined;
  stalls: number;
  /** Set when the step's observation carried a warning or a block. */
  note?: string;
}

export interface CuaOutcome {
  stopReason: CuaStopReason;
  /** A sentence for people: which limit, which error, or the done summary. */
  detail: string;
  /** The model's own summary when it called done. */
  summary?: string;
  steps: number;
  usage: Usage;
  /** Every input token: full price + cache reads + cache writes. */
  tokensIn: number;
  costUsd: number | undefined;
  wallMs: number;
  /** Per-step harness time (ms), excluding the model call and the environment's capture/act time. */
  overheadMs: number[];
  screen: Size;
  model: Size;
  frames: FrameRecord[];
  /** Destructive clicks the gate stopped. */
  blocked: ConfirmRequest[];
}

/** Everything one episode needs; only env, policy, task and observe are required. */
export interface CuaEpisode {
  env: Environment;
  policy: Policy;
  task: CuaTaskSpec;
  observe: ObserveKind;
  /** The provider's vision tier, which sets the model image size (default standard). */
  tier?: TierName | VisionTier;
  /** A fixed model image size (a resolution arm); it must fit the tier's caps. */
  modelSize?: Size;
  limits?: Partial<CuaLimits>;
  /** Screenshots kept in the conversation: "all" (default), "last:<k>", "batch:<k>:<every>". */
  history?: string | ScreenshotHistory;
  ledger?: Ledger;
  trajectory?: TrajectorySink;
  /** Where to save one PNG per step (the model's view), beside the trajectory for contact sheets. */
  framesDir?: string;
  /** Asked before a destructive click; the default denies (nobody to ask in a headless run). */
  confirm?: ConfirmHook;
  vocabulary?: readonly string[];
  /** Same-action detector thresholds (default warn at 3, halt at 5). */
  repeat?: { warnAt: number; haltAt: number };
  codec?: FrameCodec;
  system?: string;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  runId?: string;
  /** Pause after each input event before capturing (default DEFAULT_SETTLE_MS; 0 for in-memory tests). */
  settleMs?: number;
  /** Reset the environment to the task's start first (default true). */
  reset?: boolean;
}
