/**
 * A task file's grade, read in the page: `grade.js` after every step and once more at the end (the
 * episode's reward; a number is partial credit, booleans are 1 or 0, `> 0` is resolved), `done_js`
 * after every step (true ends the episode, and the reward read at that step is final: a benchmark's
 * page may reset itself once it is done). An expression that throws is a verdict with the file, the
 * field and the fix, never a crash.
 */
import type { InspectableEnvironment } from "../env/index.js";
import type { Grade } from "../tasks/types.js";
import type { TaskFile } from "./schema.js";

/** Reads that hit a page between documents ("Execution context was destroyed") are tried again. */
const EVAL_ATTEMPTS = 3;
const EVAL_RETRY_MS = 150;

export type PageRead = { ok: true; value: unknown } | { ok: false; error: string };

/** A task file's verdict: the grade every kind has, and the reward. */
export type TaskFileGrade = Grade & { reward: number };

/**
 * How long a task file's expression may wait in the page (an `await` on something that never comes):
 * it then fails with this message instead of holding the step. A page whose scripts never yield at
 * all is the page guard's to end (page_unresponsive, after PAGE_ANSWER_TIMEOUT_MS).
 */
export const PAGE_READ_TIMEOUT_MS = 10_000;

/** Run `body` (an async function's source) in the page, rejected there if it waits past the timeout. */
function bounded(body: string): string {
  const ms = PAGE_READ_TIMEOUT_MS;
  return `Promise.race([(${body})(), new Promise((_, no) => setTimeout(() => no(new Error("it did not finish within ${ms / 1000} s (it waits on something that never comes)")), ${ms}))])`;
}

/** `expr` as an async function's result, so `await` works and a trailing `;` does not break it. */
export function expression(expr: string): string {
  return bounded(`async () => (\n${expr.trim().replace(/;+$/, "")}\n)`);
}

/** `code` as an async function's body (setup_js may be several statements). */
export function statements(code: string): string {
  return bounded(`async () => {\n${code}\n}`);
}

/** Evaluate in the page; the page's own error (first line) when it throws. */
export async function readPage(env: InspectableEnvironment, script: string): Promise<PageRead> {
  let error = "";
  for (let attempt = 1; attempt <= EVAL_ATTEMPTS; attempt++) {
    try {
      return { ok: true, value: await env.evaluate<unknown>(script) };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      error = (message.split("\n")[0] ?? message).replace(/^page\.evaluate: /, "");
      if (!/context was destroyed|navigat|Target closed|not attached/i.test(message)) break;
      await new Promise((r) => setTimeout(r, EVAL_RETRY_MS));
    }
  }
  return { ok: false, error };
}

/** A grade value as a reward: finite numbers as they are, booleans 1/0, anything else a problem. */
export function toReward(value: unknown): number | string {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  const shown = value === undefined ? "undefined" : JSON.stringify(value)?.slice(0, 80);
  return `it gave ${shown} (${value === null ? "null" : typeof value}); it must give a number (the reward) or a boolean`;
}

export class PageGrade {
  private last: { reward: number; step: number } | undefined;
  private finalRead: { reward: number } | { problem: string } | undefined;
  private doneAt: number | undefined;
  private readonly notes: string[] = [];

  constructor(
    private readonly env: InspectableEnvironment,
    private readonly task: TaskFile,
  ) {}

  /** After step `step`'s capture: read the reward, and whether the page says it is done. */
  async afterStep(step: number): Promise<{ reason: "submitted"; detail: string } | undefined> {
    const read = await this.reward();
    if (typeof read === "number") this.last = { reward: read, step };
    else this.note(`grade.js after step ${step}: ${read}`);
    const { doneJs } = this.task.grade;
    if (!doneJs) return undefined;
    const done = await readPage(this.env, expression(doneJs));
    if (!done.ok) {
      this.note(`grade.done_js after step ${step}: threw ${done.error}`);
      return undefined;
    }
    if (done.value !== true) return undefined;
    this.doneAt = step;
    if (typeof read === "number") this.finalRead = { reward: read };
    return {
      reason: "submitted",
      detail: `the page says the episode is done after step ${step} (grade.done_js: ${doneJs})`,
    };
  }

  /** At the end, while the browser is open: the reward, unless done_js already fixed it. */
  async final(): Promise<void> {
    if (this.finalRead) return;
    const read = await this.reward();
    this.finalRead = typeof read === "number" ? { reward: read } : { problem: read };
  }

  verdict(): TaskFileGrade {
    const { file, grade } = this.task;
    const notes = this.notes.length > 0 ? ` (also: ${this.notes.join("; ")})` : "";
    const end = this.finalRead ?? { problem: "it was never read (the episode ended before the page loaded)" };
    if ("problem" in end) {
      const last = this.last
        ? `; the last reward read was ${this.last.reward} after step ${this.last.step}`
        : "";
      return {
        resolved: false,
        reward: 0,
        detail: `${file}: grade.js: ${end.problem} at the end — fix the expression (it runs in the page, e.g. window.REWARD)${last}${notes}`,
      };
    }
    const when = this.doneAt !== undefined ? `when the page said done (step ${this.doneAt})` : "at the end";
    return {
      resolved: end.reward > 0,
      reward: end.reward,
      detail: `reward ${end.reward} ${when} (grade.js: ${grade.js})${notes}`,
    };
  }

  private async reward(): Promise<number | string> {
    const read = await readPage(this.env, expression(this.task.grade.js));
    return read.ok ? toReward(read.value) : `threw ${read.error}`;
  }

  private note(text: string): void {
    // One line per kind of problem is enough to debug it; every step's copy would bury the verdict.
    const kind = text.replace(/after step \d+/, "");
    if (!this.notes.some((n) => n.replace(/after step \d+/, "") === kind)) this.notes.push(text);
  }
}
