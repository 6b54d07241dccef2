/**
 * A stage's record in the trajectory, and the block every asking stage shares: ask the model, read
 * the reply, record what the stage made of it (used or not) before the caller decides what a failure
 * means — the end of the run for localisation, a missing piece of evidence for the reproduction test.
 */
import type { TrajectorySink } from "../trajectory/index.js";
import type { StageModel } from "./model.js";
import type { Prompt, Stage } from "./prompts.js";

export function stageRecord(
  trajectory: TrajectorySink,
  stage: Stage,
  outcome: "ok" | "failed",
  detail: string,
  data: Record<string, unknown>,
): void {
  trajectory.write({ type: "stage", stage, outcome, detail, data });
}

/** What a stage made of a reply: a value to go on with or not, and what its record says either way. */
export type StageOutcome<T> =
  | { ok: true; value: T; detail: string; data: Record<string, unknown> }
  | { ok: false; detail: string; data: Record<string, unknown> };

/** One ask of one stage: the reply, read by `read`, recorded as the stage's outcome. */
export async function askStage<T>(
  run: { model: StageModel; trajectory: TrajectorySink },
  stage: Stage,
  prompt: Prompt,
  temperature: number,
  read: (reply: string) => StageOutcome<T>,
): Promise<StageOutcome<T>> {
  const outcome = read(await run.model.ask(stage, prompt, temperature));
  stageRecord(run.trajectory, stage, outcome.ok ? "ok" : "failed", outcome.detail, outcome.data);
  return outcome;
}
