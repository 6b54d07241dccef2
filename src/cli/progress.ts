import type { ProgressEvent } from "../swebench/index.js";

/** Cells in the bar: wide enough to move visibly at 1/20, narrow enough for an 80-column line. */
const BAR_WIDTH = 20;
/** Redraw the elapsed time on a TTY while a long instance runs, so the line never looks stuck. */
const TICK_MS = 1_000;

export interface ProgressState {
  /** What the line says is happening: "grading", "running". Counts below are this run's. */
  verb: string;
  /** What a good item is called on the line: "resolved" (default), "kept" for task builders. */
  goodWord?: string;
  done: number;
  total: number;
  resolved: number;
  errors: number;
  elapsedMs: number;
  /** Items finished by this run (reused ones are instant and would make the estimate lie). */
  ranNow: number;
  /**
   * Dollars spent so far when the display tracks them (experiments): a number, null once any price
   * is unknown, undefined when not tracked (grading spends nothing).
   */
  costUsd?: number | null;
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

/**
 * `grading 12/30 ▕████░░░░▏ resolved 9 · errors 1 · 0:42 elapsed · ~1:10 left`; with dollars
 * tracked, `running 12/30 ▕…▏ resolved 9 (75 %) · errors 1 · $0.4200 · 0:42 elapsed · ~1:10 left`.
 */
export function progressLine(state: ProgressState): string {
  const tracked = state.costUsd !== undefined;
  // Of what this run finished: a resumed run's earlier attempts are in `done`, not in these counts.
  const rate = tracked && state.ranNow > 0 ? ` (${Math.round((100 * state.resolved) / state.ranNow)} %)` : "";
  const parts = [
    `${state.verb} ${state.done}/${state.total} ${bar(state.done, state.total)} ${state.goodWord ?? "resolved"} ${state.resolved}${rate}`,
    `errors ${state.errors}`,
  ];
  if (tracked) parts.push(state.costUsd === null ? "cost unknown" : `$${(state.costUsd ?? 0).toFixed(4)}`);
  parts.push(`${clock(state.elapsedMs)} elapsed`);
  const remaining = state.total - state.done;
  // The rate of this run so far (with every worker in it), not a per-item average times workers.
  if (remaining > 0 && state.ranNow > 0)
    parts.push(`~${clock((state.elapsedMs / state.ranNow) * remaining)} left`);
  return parts.join(" · ");
}

const OUTCOME_WORDS: Record<ProgressEvent["outcome"], string> = {
  graded: "graded",
  empty_patch: "empty patch",
  patch_failed: "patch failed",
  timeout: "timeout",
  infrastructure_error: "error",
  environment_unavailable: "environment unavailable",
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

/** One finished item, as every long command reports it. */
export interface Tick {
  /** The item's own line, printed as it is where no line can be redrawn (CI, a pipe). */
  line: string;
  /** Finished so far, this one included (earlier runs' too when they count toward `total`). */
  done: number;
  resolved: boolean;
  error: boolean;
  /** False for an item reused from an earlier run, which took no time now. */
  ranNow: boolean;
  /** Its dollars, for a display that tracks them; null when its price is unknown. */
  costUsd?: number | null;
}

/** How a progress line reaches a terminal; tests pass their own. */
export interface ProgressIo {
  tty: boolean;
  write: (text: string) => void;
}

export interface ProgressDisplay {
  /** Items to finish, as the display was made with. */
  readonly total: number;
  tick: (t: Tick) => void;
  /** End the display (a TTY gets its final line and a newline). */
  close: () => void;
}

/**
 * The one progress display of `acilab grade` and `acilab experiment run`: on a TTY, one line redrawn
 * in place (carriage return + erase line) every second and at each finished item; elsewhere the
 * items' own lines through `line`.
 */
export function createProgress(options: {
  verb: string;
  total: number;
  goodWord?: string;
  /** Track dollars (and show the resolve rate). */
  dollars?: boolean;
  tty: boolean;
  /** Raw writes for the TTY line (no newline added). */
  write: (text: string) => void;
  /** Whole lines for the non-TTY form. */
  line: (text: string) => void;
  now?: () => number;
  /** More to say at the end of the redrawn line (the workers alive on a queue). */
  status?: () => string;
}): ProgressDisplay {
  const now = options.now ?? Date.now;
  const started = now();
  const state: ProgressState = {
    verb: options.verb,
    ...(options.goodWord ? { goodWord: options.goodWord } : {}),
    done: 0,
    total: options.total,
    resolved: 0,
    errors: 0,
    elapsedMs: 0,
    ranNow: 0,
    ...(options.dollars ? { costUsd: 0 } : {}),
  };
  const draw = () => {
    state.elapsedMs = now() - started;
    const more = options.status?.();
    options.write(`\r\x1b[2K${progressLine(state)}${more ? ` · ${more}` : ""}`);
  };
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  if (options.tty && options.total > 0) {
    draw();
    timer = setInterval(draw, TICK_MS);
    timer.unref();
  }
  return {
    total: options.total,
    tick: (t) => {
      state.done = t.done;
      if (t.resolved) state.resolved++;
      if (t.error) state.errors++;
      if (t.ranNow) state.ranNow++;
      if (state.costUsd !== undefined && t.costUsd !== undefined)
        state.costUsd = state.costUsd === null || t.costUsd === null ? null : state.costUsd + t.costUsd;
      if (options.tty) draw();
      else options.line(t.line);
    },
    close: () => {
      // Once: a caller may end the display early (an experiment's evidence lines follow it).
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      if (options.tty && options.total > 0) {
        draw();
        options.write("\n");
      }
    },
  };
}

/** A graded instance as a tick of the display. */
export function gradeTick(e: ProgressEvent): Tick {
  return {
    line: finishedLine(e),
    done: e.done,
    resolved: e.outcome === "graded" && e.resolved,
    error: e.outcome === "infrastructure_error",
    ranNow: !e.reused,
  };
}
