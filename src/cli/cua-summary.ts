/** What `acilab cua` prints after several episodes: one row each, the totals, the time per episode. */
import type { TaskFileError } from "../cua/index.js";
import { allInput, type CuaRunResult } from "../run/index.js";
import { table } from "./format.js";

/** One line of the summary: an episode that ran, or a task that never started (with why). */
export interface CuaRow {
  task: string;
  observe: string;
  resolved: boolean;
  /** A task file's reward; undefined for built-in tasks and tasks that never ran. */
  reward: number | undefined;
  stop: string;
  detail: string;
  steps: number;
  tokensIn: number;
  blocked: number;
  /** The episode's wall clock, and the part of it spent getting a browser (undefined: never ran). */
  wallS: number | undefined;
  browserS: number | undefined;
}

/** Stops that mean the run itself went wrong (not the agent): the command exits 1 when any is in the table. */
export const FAILED_STOPS: ReadonlySet<string> = new Set(["task_error", "env_error"]);

export function rowOfResult(r: CuaRunResult): CuaRow {
  return {
    task: r.task,
    observe: r.observe,
    resolved: r.resolved,
    reward: r.grade.reward,
    stop: r.stop_reason,
    detail: r.detail,
    steps: r.steps,
    tokensIn: allInput(r.usage),
    blocked: r.blocked.length,
    wallS: r.wall_s,
    browserS: r.timing.browser_s,
  };
}

/** A task that never reached an episode: its file did not load, or it could not be set up to run. */
export function rowOfFailure(
  task: string,
  observe: string,
  stop: "task_error" | "env_error",
  detail: string,
): CuaRow {
  return {
    task,
    observe,
    resolved: false,
    reward: undefined,
    stop,
    detail,
    steps: 0,
    tokensIn: 0,
    blocked: 0,
    wallS: undefined,
    browserS: undefined,
  };
}

/** A folder's task file that does not load, as its row (named by its file: it has no id we can trust). */
export function rowOfBrokenFile(problem: TaskFileError): CuaRow {
  return rowOfFailure(problem.file, "-", "task_error", problem.message);
}

export function summaryTable(rows: readonly CuaRow[]): string {
  const resolved = rows.filter((r) => r.resolved).length;
  const failed = rows.filter((r) => FAILED_STOPS.has(r.stop));
  const ran = rows.filter((r) => r.wallS !== undefined && !FAILED_STOPS.has(r.stop));
  const lines = [
    table([
      ["task", "observe", "resolved", "reward", "stop", "steps", "tokens in", "blocked", "wall s"],
      ...rows.map((r) => [
        r.task,
        r.observe,
        r.resolved ? "yes" : "NO",
        r.reward === undefined ? "-" : String(r.reward),
        r.stop,
        String(r.steps),
        r.tokensIn.toLocaleString("en-US"),
        String(r.blocked),
        r.wallS === undefined ? "-" : r.wallS.toFixed(1),
      ]),
    ]),
    "",
    `${resolved}/${rows.length} resolved; ${rows.length - failed.length} of ${rows.length} started and were graded${failed.length > 0 ? `, ${counts(failed)}` : ""}`,
  ];
  const time = timeLine(ran);
  if (time) lines.push(time);
  if (failed.length > 0) {
    lines.push("", "did not run:");
    for (const r of failed) lines.push(`  ${r.task} (${r.stop}): ${r.detail}`);
  }
  return lines.join("\n");
}

/** "2 task_error, 1 env_error" */
function counts(rows: readonly CuaRow[]): string {
  const by = new Map<string, number>();
  for (const r of rows) by.set(r.stop, (by.get(r.stop) ?? 0) + 1);
  return [...by].map(([stop, n]) => `${n} ${stop}`).join(", ");
}

/** The time per episode: the median, and how much of it went to getting a browser. */
function timeLine(ran: readonly CuaRow[]): string | undefined {
  if (ran.length === 0) return undefined;
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
  };
  const wall = median(ran.map((r) => r.wallS ?? 0));
  const browser = median(ran.map((r) => r.browserS ?? 0));
  const total = ran.reduce((sum, r) => sum + (r.wallS ?? 0), 0);
  return `time per episode: median ${wall.toFixed(2)} s, of which ${browser.toFixed(2)} s getting a browser; ${total.toFixed(0)} s in all`;
}
