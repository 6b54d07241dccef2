/**
 * What a computer-use run needs from a task, whatever kind of task it is: a built-in task graded on
 * its app's server state (./tasks/stage.ts) or a task file graded by an expression read in the page
 * (./taskfile/stage.ts). The run (src/run/cua.ts) owns the browser; a stage owns the app, the
 * instruction and the grade.
 */
import { ObserverStop, type StopReason } from "../loop/index.js";
import type { InspectableEnvironment } from "./env/index.js";
import type { CuaTaskSpec } from "./episode.js";
import type { StopCheck } from "./observer.js";
import { TaskFileError } from "./taskfile/schema.js";
import type { Grade } from "./tasks/types.js";
import type { ObserveKind } from "./types.js";

/** One episode's task, opened: what the loop needs, and how the episode is graded and torn down. */
export interface OpenStage {
  task: CuaTaskSpec;
  /** True when open() already loaded the first page (the instruction or setup needed it). */
  loaded: boolean;
  /** Asked after every step's capture; a stop ends the episode (a page that says it is done). */
  afterStep?: StopCheck;
  /**
   * Called while the browser is still open, once the loop has ended; `pageMisbehaved`: the episode
   * ended because the page did (a read that fails now is the page's failure, not the task's).
   */
  beforeClose(ended: { pageMisbehaved: boolean }): Promise<void>;
  /** The verdict, after the browser has closed. */
  grade(): Grade;
  /** Where the secret API key arrived (built-in tasks); [] when the task has no secret. */
  keyLeaks(): string[];
  /** Stop the app. */
  close(): Promise<void>;
}

export interface CuaStage {
  readonly id: string;
  readonly observe: readonly ObserveKind[];
  open(env: InspectableEnvironment): Promise<OpenStage>;
}

/**
 * Why an episode could not be opened, as its stop reason: the page misbehaved while loading (its own
 * reason), the task is broken — its file's setup or instruction failed in the page, its app never
 * answered (`task_error`, the file and the fix named) — or the environment failed (`env_error`).
 */
export function startFailure(err: unknown): { reason: StopReason; detail: string } {
  if (err instanceof ObserverStop) return { reason: err.reason, detail: err.detail };
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof TaskFileError) return { reason: "task_error", detail: message };
  return { reason: "env_error", detail: `the episode could not start: ${message}` };
}
