/**
 * What one edit did, as a person reads it: a unified diff of the file before and after the call,
 * one hunk around the changed lines. It is the result's face for people (the trajectory keeps it and
 * the inspector shows it); the model reads the tool's own output. Every file tool changes one
 * contiguous region, so the common prefix and suffix bound the hunk exactly; a whole-file rewrite is
 * one hunk from its first changed line to its last.
 */
import { changedSpan, splitLines } from "./text.js";

/** Unchanged lines shown around a change, as git diff shows them. */
const CONTEXT_LINES = 3;

/** Lines of one step's diff kept (head and tail): a rewrite of a 5,000-line file must not flood the trajectory. */
export const STEP_DIFF_MAX_LINES = 400;

/** `before`/`after` null: the file did not exist (created) or no longer does (deleted). */
export function stepDiff(rel: string, before: string | null, after: string | null): string {
  const old = before === null ? [] : splitLines(before);
  const now = after === null ? [] : splitLines(after);
  const span = changedSpan(old, now);
  // 1-based, inclusive: old lines start..beforeEnd became new lines start..afterEnd.
  const from = Math.max(1, span.start - CONTEXT_LINES);
  const oldTo = Math.min(old.length, span.beforeEnd + CONTEXT_LINES);
  const newTo = Math.min(now.length, span.afterEnd + CONTEXT_LINES);
  const body: string[] = [];
  for (let i = from; i < span.start; i++) body.push(` ${old[i - 1]}`);
  for (let i = span.start; i <= span.beforeEnd; i++) body.push(`-${old[i - 1]}`);
  for (let i = span.start; i <= span.afterEnd; i++) body.push(`+${now[i - 1]}`);
  for (let i = span.beforeEnd + 1; i <= oldTo; i++) body.push(` ${old[i - 1]}`);
  const oldCount = Math.max(0, oldTo - from + 1);
  const newCount = Math.max(0, newTo - from + 1);
  const range = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
  return [
    `--- ${before === null ? "/dev/null" : `a/${rel}`}`,
    `+++ ${after === null ? "/dev/null" : `b/${rel}`}`,
    `@@ -${range(from, oldCount)} +${range(from, newCount)} @@`,
    ...capped(body),
  ].join("\n");
}

function capped(lines: string[]): string[] {
  if (lines.length <= STEP_DIFF_MAX_LINES) return lines;
  const head = Math.ceil(STEP_DIFF_MAX_LINES / 2);
  const tail = STEP_DIFF_MAX_LINES - head;
  return [
    ...lines.slice(0, head),
    `\\ ${lines.length - STEP_DIFF_MAX_LINES} lines of this diff not shown`,
    ...lines.slice(lines.length - tail),
  ];
}
