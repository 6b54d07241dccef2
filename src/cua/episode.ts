/** The shapes around one computer-use episode: what goes in, what comes out, how it can end. */

import type { HistoryProcessor } from "../history/index.js";
import type { Ledger } from "../ledger/index.js";
import type { Limits, RunOutcome } from "../loop/index.js";
import type { Policy } from "../policies/index.js";
import type { TrajectorySink } from "../trajectory/index.js";
import type { ConfirmHook, GateRefusal, UnreadableHook } from "./gate.js";
import type { StopCheck } from "./observer.js";
import type { FrameCodec } from "./perceive.js";
import type { TierName, VisionTier } from "./scaling.js";
import type { Environment, EnvironmentStart, ObserveKind, RequestHook, Size, UiElement } from "./types.js";

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

/** How an episode ended: the loop's outcome, and what the screen observer and the gate kept. */
export type CuaOutcome = RunOutcome & {
  /** The last screen captured, and the image size the model saw it at. */
  screen: Size;
  model: Size;
  frames: FrameRecord[];
  /**
   * What was refused: destructive actions nobody approved, actions whose target could not be read, and
   * state-changing requests the page made that no rule allowed and nobody approved.
   */
  blocked: GateRefusal[];
};

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
  limits?: Partial<Limits>;
  /** Screenshots kept in the conversation: "all" (default), "last:<k>", "batch:<k>:<every>". */
  history?: string | HistoryProcessor;
  ledger?: Ledger;
  trajectory?: TrajectorySink;
  /** Where to save one PNG per step (the model's view), beside the trajectory for contact sheets. */
  framesDir?: string;
  /** Asked before a destructive click; the default denies (nobody to ask in a headless run). */
  confirm?: ConfirmHook;
  /** Asked before an action whose target cannot be read (a canvas, a cross-origin frame); the default refuses. */
  confirmUnreadable?: UnreadableHook;
  /**
   * Asked about a state-changing request the page makes that no task rule allows (the consequence
   * gate, env/request-gate.ts); the default refuses (nobody to ask in a headless run).
   */
  confirmRequest?: RequestHook;
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
  /** The task's own check after each step (a task file's done_js): a stop ends the episode. */
  afterStep?: StopCheck;
}
