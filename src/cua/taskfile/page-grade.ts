/**
 * A task file's grade, read in the page: `grade.js` after every step and once more at the end (the
 * episode's reward; a number is partial credit, booleans are 1 or 0, `> 0` is resolved), `done_js`
 * after every step (true ends the episode, and the reward read at that step is final: a benchmark's
 * page may reset itself once it is done). An expression that throws is a verdict with the file, the
 * field and the fix, never a crash.
 */
import type { InspectableEnvironment } from "../env/index.js";
import type { Grade } from "../tasks/types.js";
import { PageHazardError } from "../types.js";
import type { TaskFile } from "./schema.js";

/** Reads that hit a page between documents ("Execution context was destroyed") are tried again. */
const EVAL_ATTEMPTS = 3;
const EVAL_RETRY_MS = 150;

/**
 * What reading the page gave: a value, the expression's own error, or `pageFault` — the page (not the
 * expression) failed: it misbehaved (a crash, a flood, scripts that never yield) or its browser is gone.
 */
export type PageRead = { ok: true; value: unknown } | { ok: false; error: string; pageFault?: true };

/** Errors that say the page or its browser went away, whatever the expression was. */
const PAGE_GONE =
  /Target crashed|Target page, context or browser has been closed|Target closed|Browser has been closed/i;

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
      if (err instanceof PageHazardError) return { ok: false, error: err.detail, pageFault: true };
      const message = err instanceof Error ? err.message : String(err);
      error = (message.split("\n")[0] ?? message).replace(/^page\.evaluate: /, "");
      if (PAGE_GONE.test(message)) return { ok: false, error, pageFault: true };
      if (!/context was destroyed|navigat|not attached/i.test(message)) break;
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
  private finalRead: { reward: number } | { problem: string; pageFault: boolean } | undefined;
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
    else this.note(`grade.js after step ${step}: ${read.problem}`);
    const { doneJs } = this.task.grade;
    if (!doneJs) return undefined;
    const done = await readPage(this.env, expression(doneJs));
    if (!done.ok) {
      this.note(
        `grade.done_js after step ${step}: ${done.pageFault ? "could not be read, " : "threw "}${done.error}`,
      );
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

  /**
   * At the end, while the browser is open: the reward, unless done_js already fixed it. After a page
   * that misbehaved (the episode's stop reason) a read that fails is the page's failure too: a page
   * still flooding or spinning can starve an expression past its in-page timeout.
   */
  async final(ended: { pageMisbehaved: boolean } = { pageMisbehaved: false }): Promise<void> {
    if (this.finalRead) return;
    const read = await this.reward();
    if (typeof read === "number") this.finalRead = { reward: read };
    else if (ended.pageMisbehaved && !read.pageFault)
      this.finalRead = {
        problem: `could not be read after the page misbehaved (${read.problem})`,
        pageFault: true,
      };
    else this.finalRead = read;
  }

  verdict(): TaskFileGrade {
    const { file, grade } = this.task;
    const notes = this.notes.length > 0 ? ` (also: ${this.notes.join("; ")})` : "";
    const end = this.finalRead ?? {
      problem: "it was never read (the episode ended before the page loaded)",
      pageFault: true,
    };
    if ("problem" in end) {
      const last = this.last
        ? `; the last reward read was ${this.last.reward} after step ${this.last.step}`
        : "";
      // A page that crashed or misbehaved is not the expression's fault: say so, and no fix to make.
      const advice = end.pageFault
        ? "the page failed, not the expression"
        : "fix the expression (it runs in the page, e.g. window.REWARD)";
      return {
        resolved: false,
        reward: 0,
        detail: `${file}: grade.js: ${end.problem} at the end — ${advice}${last}${notes}`,
      };
    }
    const when = this.doneAt !== undefined ? `when the page said done (step ${this.doneAt})` : "at the end";
    return {
      resolved: end.reward > 0,
      reward: end.reward,
      detail: `reward ${end.reward} ${when} (grade.js: ${grade.js})${notes}`,
    };
  }

  private async reward(): Promise<number | { problem: string; pageFault: boolean }> {
    const read = await readPage(this.env, expression(this.task.grade.js));
    if (!read.ok)
      return read.pageFault
        ? { problem: `could not be read, the page misbehaved (${read.error})`, pageFault: true }
        : { problem: `threw ${read.error}`, pageFault: false };
    const reward = toReward(read.value);
    return typeof reward === "number" ? reward : { problem: reward, pageFault: false };
  }

  private note(text: string): void {
    // One line per kind of problem is enough to debug it; every step's copy would bury the verdict.
    const kind = text.replace(/after step \d+/, "");
    if (!this.notes.some((n) => n.replace(/after step \d+/, "") === kind)) this.notes.push(text);
  }
}
