/**
 * Trajectory records of a computer-use episode, in the same JSONL format as coding runs (run_start,
 * turn, run_end, written by the same loop) plus a `cua` field on run_start and on every turn. Images
 * are stored as refs to the saved frames, never as base64 (the loop strips them: withoutImageData).
 */
import { type Limits, runStartRecord } from "../loop/index.js";
import type { ToolSpec } from "../policies/index.js";
import type { RunStartRecord, TurnRecord } from "../trajectory/index.js";
import type { ObserveKind, ScreenAction, Size } from "./types.js";

/** Per-turn computer-use detail, alongside the standard turn fields (written by ScreenObserver). */
export interface CuaTurnDetail {
  /** The saved frame shown after this turn's action (relative to the trajectory's folder). */
  frame: string | null;
  delta: number | null;
  stalls: number;
  repeats: number;
  /** What the environment executed, in screen pixels (null when nothing ran). */
  screen_action: ScreenAction | null;
  blocked: string | null;
  /** State-changing requests the page made during or after this turn's action that were refused. */
  requests_refused: string[];
  warnings: string[];
  capture_ms: number | null;
}

export type CuaTurnRecord = TurnRecord & { cua: CuaTurnDetail };

/** The run_start record of an episode: the common one, its tools named `cua:<observe>`, plus `cua`. */
export function cuaRunStart(run: {
  runId: string;
  task: string;
  policy: string;
  observe: ObserveKind;
  history: string;
  limits: Limits;
  system: string;
  tools: ToolSpec[];
  screen: Size;
  model: Size;
  tier: string;
}): RunStartRecord & { cua: { observe: ObserveKind; screen: Size; model: Size; tier: string } } {
  const { observe, screen, model, tier } = run;
  return {
    ...runStartRecord({ ...run, tools: `cua:${observe}`, memory: "", toolSpecs: run.tools }),
    cua: { observe, screen, model, tier },
  };
}
