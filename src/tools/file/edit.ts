import { z } from "zod";
import type { EditGuard } from "../lint/index.js";
import { defineTool, type ToolResult } from "../types.js";
import { commit } from "./commit.js";
import { prose } from "./prose.js";
import { asResult, failure, plural } from "./results.js";
import { spliceLines, splitLines } from "./text.js";
import { showWindow, windowStartFor } from "./viewer.js";
import { readWorkspaceText, requireExact } from "./workspace-io.js";

const schema = z.object({
  path: z.string().optional().describe("File to edit; default: the file open in the viewer."),
  start: z.number().int().min(1).describe("First line to replace (1-based, inclusive)."),
  end: z
    .number()
    .int()
    .min(0)
    .describe(
      "Last line to replace (inclusive). Use end = start - 1 to insert before start without replacing anything.",
    ),
  replacement: z
    .string()
    .describe("The new lines for start..end (a final newline is added if missing); empty deletes the lines."),
});

/** What the edit did, in words: replaced, inserted or deleted. */
function summary(rel: string, start: number, end: number, added: number, total: number): string {
  const size = `it now has ${plural(total, "line")}`;
  if (end < start) return `ok: inserted ${plural(added, "line")} before line ${start} in ${rel}; ${size}`;
  const range = `lines ${start}-${end}`;
  if (added === 0) return `ok: deleted ${range} in ${rel}; ${size}`;
  return `ok: replaced ${range} (${plural(end - start + 1, "line")}) with ${plural(added, "line")} in ${rel}; ${size}`;
}

/** SWE-agent's `edit n:m`: replace an inclusive range of lines, then show the window around it. */
export function makeEditTool(guard: EditGuard) {
  return defineTool({
    name: "edit",
    description: prose("edit.txt"),
    kind: "edit",
    schema,
    execute: ({ path, start, end, replacement }, ctx): Promise<ToolResult> =>
      asResult(async () => {
        const target = path ?? ctx.editor.openFile;
        if (target === undefined) {
          return failure(
            "no_file_open",
            "no file is open and no path was given; call view with a path first, or pass path",
          );
        }
        const file = await readWorkspaceText(ctx.root, target);
        const text = requireExact(file);
        const rel = file.rel;
        const total = splitLines(text).length;
        if (end < start - 1) {
          return failure(
            "invalid_arguments",
            `end ${end} is before start ${start}; use end >= start to replace lines start..end, or end = ${start - 1} to insert before line ${start}`,
          );
        }
        if (start > total + 1) {
          return failure(
            "out_of_range",
            `start ${start} is out of range; ${rel} has ${total} lines — use a start between 1 and ${total + 1} (${total + 1} appends)`,
          );
        }
        if (end > total) {
          return failure(
            "out_of_range",
            `end ${end} is past the last line; ${rel} has ${total} lines — use an end of at most ${total}`,
          );
        }
        const after = spliceLines(text, start, end, replacement);
        const done = await commit(ctx, guard, { rel, before: text, after, mode: "existing" });
        if (!done.ok) return done.result;
        const added = replacement === "" ? 0 : splitLines(replacement).length;
        const window = showWindow(ctx.editor, rel, done.lines, windowStartFor(start, done.lines.length));
        return {
          output: `${summary(rel, start, end, added, done.lines.length)}\n${window}`,
          changedFiles: [rel],
          diff: done.diff,
        };
      }),
  });
}
