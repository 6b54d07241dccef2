/**
 * How long one command may run: what the call (or the run's command timeout) asked for, cut at the
 * run's wall-clock deadline when that comes first. A run limited to 4 s must not wait for a 30 s
 * command to finish before it notices: the sandbox's own timeout kills the command at the deadline.
 */
import { failure } from "./errors.js";
import type { BaseToolContext, ToolResult } from "./types.js";

/** A command's clock: its own timeout, or what is left of the run's when that is shorter. */
export interface OpenWindow {
  ok: true;
  timeoutMs: number;
  by: "command" | "run";
}

/** The clock a command runs under, or the refusal when the run's time is already up. */
export type CommandWindow = OpenWindow | { ok: false; result: ToolResult };

/** `askedMs`: the call's own limit (its timeout_s, else the run's command timeout). */
export function commandWindow(ctx: BaseToolContext, askedMs: number, now = Date.now()): CommandWindow {
  if (ctx.deadline === undefined) return { ok: true, timeoutMs: askedMs, by: "command" };
  const left = ctx.deadline - now;
  if (left <= 0)
    return {
      ok: false,
      result: failure(
        "timeout",
        "not run: the run's wall-clock limit has passed, so the run ends after this step",
      ),
    };
  return left < askedMs
    ? { ok: true, timeoutMs: left, by: "run" }
    : { ok: true, timeoutMs: askedMs, by: "command" };
}

/** The note under a command's output when its clock ran out. */
export function timedOutNote(window: OpenWindow, what = "the command"): string {
  return window.by === "run"
    ? `[stopped at the run's wall-clock limit (${(window.timeoutMs / 1000).toFixed(1)} s into ${what}); ${what} and everything it started were killed, and the run ends after this step]`
    : `[timed out after ${Math.round(window.timeoutMs / 1000)} s; ${what} and everything it started were killed — use a smaller input or a shorter command]`;
}
