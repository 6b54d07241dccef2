import type { ProgressEvent } from "../swebench/index.js";

/** Cells in the bar: wide enough to move visibly at 1/20, narrow enough for an 80-column line. */
const BAR_WIDTH = 20;
/** Redraw the elapsed time on a TTY while a long instance runs, so the line never looks stuck. */
const TICK_MS = 1_000;

export interface ProgressState {
  done: number;
  total: number;
  resolved: number;
  errors: number;
  elapsedMs: number;
  /** Instances graded in this run (reused ones are instant and would make the estimate lie). */
  gradedNow: number;
}

export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

export function bar(done: number, total: number, width = BAR_WIDTH): string {
  const filled = total === 0 ? width : Math.min(width, Math.round((done / total) * width));
  return `▕${"█".repeat(filled)}${"░".repeat(width - filled)}▏`;
}

/** `grading 12/30 ▕████░░░░▏ resolved 9 · errors 1 · 0:42 elapsed · ~1:10 left` */
export function progressLine(state: ProgressState): string {
  const parts = [
    `grading ${state.done}/${state.total} ${bar(state.done, state.total)} resolved ${state.resolved}`,
    `errors ${state.errors}`,
    `${clock(state.elapsedMs)} elapsed`,
  ];
  const remaining = state.total - state.done;
  // The rate of this run so far (with every worker in it), not a per-instance average times workers.
  if (remaining > 0 && state.gradedNow > 0)
    parts.push(`~${clock((state.elapsedMs / state.gradedNow) * remaining)} left`);
  return parts.join(" · ");
}

const OUTCOME_WORDS: Record<ProgressEvent["outcome"], string> = {
  graded: "graded",
  empty_patch: "empty patch",
  patch_failed: "patch failed",
  timeout: "timeout",
  infrastructure_error: "error",
};

/** A detail is a log excerpt at times: one line of it, short enough for a log line. */
function firstLine(text: string): string {
  const line = text.split("\n")[0]?.trim() ?? "";
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** One line per finished instance, for logs and CI where a redrawn line would be noise. */
export function finishedLine(e: ProgressEvent): string {
  const word = e.outcome === "graded" ? (e.resolved ? "resolved" : "unresolved") : OUTCOME_WORDS[e.outcome];
  let verdict: string;
  if (e.reused) verdict = `${word} (earlier report reused)`;
  else if (e.outcome === "empty_patch") verdict = `${word} (not run)`;
  else if (e.outcome === "graded" && e.resolved) verdict = `${word} in ${e.duration_s.toFixed(1)} s`;
  else if (e.outcome === "graded")
    verdict = `${word} in ${e.duration_s.toFixed(1)} s — ${firstLine(e.detail)}`;
  else verdict = `${word} — ${firstLine(e.detail)}`;
  return `[${e.done}/${e.total}] ${e.instance_id}: ${verdict}`;
}

export interface ProgressDisplay {
  onProgress: (event: ProgressEvent) => void;
  /** End the display (a TTY gets its final line and a newline). */
  close: () => void;
}

/**
 * On a TTY, one line redrawn in place (carriage return + erase line); elsewhere one plain line per
 * finished instance through `line`.
 */
export function createProgress(options: {
  total: number;
  tty: boolean;
  /** Raw writes for the TTY line (no newline added). */
  write: (text: string) => void;
  /** Whole lines for the non-TTY form. */
  line: (text: string) => void;
  now?: () => number;
}): ProgressDisplay {
  const now = options.now ?? Date.now;
  const started = now();
  const state: ProgressState = {
    done: 0,
    total: options.total,
    resolved: 0,
    errors: 0,
    elapsedMs: 0,
    gradedNow: 0,
  };
  const draw = () => {
    state.elapsedMs = now() - started;
    options.write(`\r\x1b[2K${progressLine(state)}`);
  };
  let timer: NodeJS.Timeout | undefined;
  if (options.tty && options.total > 0) {
    draw();
    timer = setInterval(draw, TICK_MS);
    timer.unref();
  }
  return {
    onProgress: (e) => {
      state.done = e.done;
      state.resolved = e.resolvedSoFar;
      state.errors = e.errorsSoFar;
      if (!e.reused) state.gradedNow++;
      if (options.tty) draw();
      else options.line(finishedLine(e));
    },
    close: () => {
      if (timer) clearInterval(timer);
      if (options.tty && options.total > 0) {
        draw();
        options.write("\n");
      }
    },
  };
}
