import { z } from "zod";
import { defineTool, type EditorState, type ToolContext, type ToolResult } from "../types.js";
import { prose } from "./prose.js";
import { asResult, failure, ToolFailure } from "./results.js";
import { numberedRange, splitLines } from "./text.js";
import { readWorkspaceText } from "./workspace-io.js";

/** SWE-agent's viewer ablation: a 100-line window beat both 30 lines and the whole file. */
export const VIEW_WINDOW_LINES = 100;

/** Lines a scroll repeats from the previous window, so the model sees where the new one joins (SWE-agent). */
export const SCROLL_OVERLAP_LINES = 2;

/** goto puts the target this far down the window: enough context above, most of the window below. */
export const GOTO_OFFSET_LINES = Math.floor(VIEW_WINDOW_LINES / 6);

/** The viewer observation: header, hidden-line counts and the numbered window starting at `start`. */
export function renderWindow(rel: string, lines: readonly string[], start: number): string {
  const out = [`[File: ${rel} (${lines.length} lines total)]`];
  if (lines.length === 0) return [...out, "(empty file)"].join("\n");
  const end = Math.min(lines.length, start + VIEW_WINDOW_LINES - 1);
  if (start > 1) out.push(`(${start - 1} more lines above)`);
  out.push(...numberedRange(lines, start, end));
  if (end < lines.length) out.push(`(${lines.length - end} more lines below)`);
  return out.join("\n");
}

/** First line of a window that shows `line` a sixth of the way down, kept inside the file. */
export function windowStartFor(line: number, total: number): number {
  const lastStart = Math.max(1, total - VIEW_WINDOW_LINES + 1);
  return Math.max(1, Math.min(line - GOTO_OFFSET_LINES, lastStart));
}

/** Show a window of the file and remember it as the viewer's position. */
export function showWindow(
  editor: EditorState,
  rel: string,
  lines: readonly string[],
  start: number,
): string {
  editor.openFile = rel;
  editor.windowStart = start;
  return renderWindow(rel, lines, start);
}

async function openFileLines(ctx: ToolContext, tool: string): Promise<{ rel: string; lines: string[] }> {
  const open = ctx.editor.openFile;
  if (open === undefined) {
    throw new ToolFailure("no_file_open", `no file is open; call view with a path first, then ${tool}`);
  }
  const file = await readWorkspaceText(ctx.root, open);
  return { rel: file.rel, lines: splitLines(file.text) };
}

export const viewTool = defineTool({
  name: "view",
  description: prose("view.txt"),
  kind: "read",
  schema: z.object({
    path: z.string().describe("File to open, relative to the workspace root (or absolute inside it)."),
    start: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`First line of the ${VIEW_WINDOW_LINES}-line window, counting from 1. Default 1.`),
  }),
  execute: ({ path, start = 1 }, ctx): Promise<ToolResult> =>
    asResult(async () => {
      const file = await readWorkspaceText(ctx.root, path);
      const lines = splitLines(file.text);
      if (lines.length > 0 && start > lines.length) {
        const range = `use a start between 1 and ${lines.length}`;
        return failure(
          "out_of_range",
          `line ${start} is out of range; ${file.rel} has ${lines.length} lines — ${range}`,
        );
      }
      return { output: showWindow(ctx.editor, file.rel, lines, start) };
    }),
});

export const gotoTool = defineTool({
  name: "goto",
  description: prose("goto.txt"),
  kind: "read",
  schema: z.object({
    line: z
      .number()
      .int()
      .min(1)
      .describe("Line of the open file to show; it lands a sixth of the way down the window."),
  }),
  execute: ({ line }, ctx): Promise<ToolResult> =>
    asResult(async () => {
      const { rel, lines } = await openFileLines(ctx, "goto");
      if (line > lines.length) {
        if (lines.length === 0) return { output: showWindow(ctx.editor, rel, lines, 1) };
        return failure(
          "out_of_range",
          `line ${line} is out of range; ${rel} has ${lines.length} lines — use a line between 1 and ${lines.length}`,
        );
      }
      return { output: showWindow(ctx.editor, rel, lines, windowStartFor(line, lines.length)) };
    }),
});

export const scrollTool = defineTool({
  name: "scroll",
  description: prose("scroll.txt"),
  kind: "read",
  schema: z.object({
    direction: z
      .enum(["up", "down"])
      .describe(
        `"down" shows the next window of the open file, "up" the previous one (${SCROLL_OVERLAP_LINES} lines overlap).`,
      ),
  }),
  execute: ({ direction }, ctx): Promise<ToolResult> =>
    asResult(async () => {
      const { rel, lines } = await openFileLines(ctx, "scroll");
      const total = lines.length;
      if (total === 0) return { output: showWindow(ctx.editor, rel, lines, 1) };
      const lastStart = Math.max(1, total - VIEW_WINDOW_LINES + 1);
      // The file may have shrunk past the window since it was placed; then start from its last window.
      const current = ctx.editor.windowStart > total ? lastStart : ctx.editor.windowStart;
      const step = VIEW_WINDOW_LINES - SCROLL_OVERLAP_LINES;
      if (direction === "down") {
        if (current + VIEW_WINDOW_LINES - 1 >= total) {
          const last = `lines ${current}-${total} of ${total} are the last window`;
          return { output: `(already at the end of ${rel}: ${last}; scroll up or goto a line)` };
        }
        return { output: showWindow(ctx.editor, rel, lines, Math.min(current + step, lastStart)) };
      }
      if (current <= 1) {
        return { output: `(already at the top of ${rel}; scroll down or goto a line)` };
      }
      return { output: showWindow(ctx.editor, rel, lines, Math.max(1, current - step)) };
    }),
});
