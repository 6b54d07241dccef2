import { writeTextInside } from "../../workspace/index.js";
import type { EditGuard, LintIssue } from "../lint/index.js";
import type { EditorState, ToolContext, ToolResult } from "../types.js";
import { failure, plural } from "./results.js";
import { stepDiff } from "./step-diff.js";
import { type ChangedSpan, changedSpan, cutLongLine, numbered, numberedRange, splitLines } from "./text.js";
import { ensureParentDirs } from "./workspace-io.js";

/** Context around an edited region: enough to check indentation and how the new text joins the old. */
export const EDIT_CONTEXT_LINES = 3;

/** The model just wrote the region; past 60 lines it needs the joins, not its own text read back. */
export const REGION_MAX_LINES = 60;

/** Undo depth per file: ample for one run's edits, and bounded if a model rewrites a file in a loop. */
export const UNDO_DEPTH = 50;

/** New lint errors listed in a rejection; beyond 20 the file is broken and the first ones say why. */
export const MAX_LISTED_LINT_ERRORS = 20;

/**
 * The numbered lines of an edited region with EDIT_CONTEXT_LINES around it. `start..end` is the span
 * in `lines` (end = start - 1 when the edit left no lines there, e.g. a deletion).
 */
export function renderRegion(rel: string, lines: readonly string[], start: number, end: number): string {
  if (lines.length === 0) return "(empty file)";
  const from = Math.max(1, start - EDIT_CONTEXT_LINES);
  const to = Math.min(lines.length, Math.max(end, start - 1) + EDIT_CONTEXT_LINES);
  if (to - from + 1 <= REGION_MAX_LINES) return numberedRange(lines, from, to).join("\n");
  const cut = from + REGION_MAX_LINES - 1;
  const rest = `(${to - cut} more lines of this region not shown; view ${rel} at line ${cut + 1} to see them)`;
  return [...numberedRange(lines, from, cut), rest].join("\n");
}

export function pushUndo(editor: EditorState, rel: string, previous: string | null): void {
  const stack = editor.undo.get(rel) ?? [];
  stack.push(previous);
  if (stack.length > UNDO_DEPTH) stack.splice(0, stack.length - UNDO_DEPTH);
  editor.undo.set(rel, stack);
}

/** A whole-file change an edit tool wants to make. `before` is null for a file that does not exist. */
export interface Proposal {
  rel: string;
  before: string | null;
  after: string;
  /** How writeTextInside opens the file: "new" refuses to overwrite, "existing" refuses to create. */
  mode: "new" | "existing" | "any";
}

export type Committed = {
  ok: true;
  lines: string[];
  /** The changed lines, in the new content. */
  span: ChangedSpan;
  /** Directories made for a new file, workspace-relative. */
  createdDirs: string[];
  /** The change as a unified diff, for the result's `diff`. */
  diff: string;
};

/**
 * Review a proposal with the guard and, if it passes, write it and push the old content on the undo
 * stack. The candidate is linted from memory before anything is written, so a rejected edit never
 * touches the workspace and leaves no undo entry: the same outcome as SWE-agent's write-then-restore,
 * without a moment where the broken version is on disk.
 */
export async function commit(
  ctx: ToolContext,
  guard: EditGuard,
  proposal: Proposal,
): Promise<Committed | { ok: false; result: ToolResult }> {
  const { rel, before, after, mode } = proposal;
  const verdict = await guard.review(rel, before, after);
  const oldLines = before === null ? [] : splitLines(before);
  const lines = splitLines(after);
  const span = changedSpan(oldLines, lines);
  if (!verdict.accepted) {
    return {
      ok: false,
      result: rejection(rel, verdict.linter, verdict.added, oldLines, before !== null, lines, span),
    };
  }
  const createdDirs = before === null ? await ensureParentDirs(ctx.root, rel) : [];
  await writeTextInside(ctx.root, rel, after, mode);
  pushUndo(ctx.editor, rel, before);
  return { ok: true, lines, span, createdDirs, diff: stepDiff(rel, before, after) };
}

function rejection(
  rel: string,
  linter: string,
  added: readonly LintIssue[],
  oldLines: readonly string[],
  existed: boolean,
  lines: readonly string[],
  span: ChangedSpan,
): ToolResult {
  const what = plural(added.length, "new lint error");
  const out = [`Your edit was NOT applied: it introduces ${what} (${linter}) in ${rel}:`];
  for (const issue of added.slice(0, MAX_LISTED_LINT_ERRORS)) {
    out.push(`- line ${issue.line}, column ${issue.column}: ${issue.code} ${issue.message}`);
    const text = lines[issue.line - 1];
    if (text !== undefined) out.push(`  ${numbered(issue.line, cutLongLine(text))}`);
  }
  if (added.length > MAX_LISTED_LINT_ERRORS)
    out.push(`- … and ${added.length - MAX_LISTED_LINT_ERRORS} more`);
  out.push("", "Proposed edit (not applied):", renderRegion(rel, lines, span.start, span.afterEnd));
  out.push("", "Original (kept):");
  out.push(existed ? renderRegion(rel, oldLines, span.start, span.beforeEnd) : `(${rel} does not exist yet)`);
  out.push(
    "",
    `${rel} is ${existed ? "unchanged" : "not created"}. Line numbers above are those of the proposed file. ` +
      "Fix the edit (define or import the missing name, correct the syntax or indentation) and send it again.",
  );
  return failure("lint_failed", out.join("\n"));
}
