import { z } from "zod";
import { writeTextInside } from "../../workspace/index.js";
import { defineTool, type ToolResult } from "../types.js";
import { renderRegion } from "./commit.js";
import { prose } from "./prose.js";
import { asResult, failure, plural } from "./results.js";
import { stepDiff } from "./step-diff.js";
import { changedSpan, splitLines } from "./text.js";
import { ensureParentDirs, readIfExists, removeFile, workspacePath } from "./workspace-io.js";

const schema = z.object({
  path: z
    .string()
    .describe("File whose last edit (by str_replace, insert, edit, create_file or write_file) to revert."),
});

export const undoTool = defineTool({
  name: "undo",
  description: prose("undo.txt"),
  kind: "edit",
  schema,
  execute: ({ path }, ctx): Promise<ToolResult> =>
    asResult(async () => {
      const rel = workspacePath(ctx.root, path);
      const stack = ctx.editor.undo.get(rel) ?? [];
      if (stack.length === 0) {
        return failure(
          "nothing_to_undo",
          `nothing to undo for ${rel}: the file tools have not changed it in this run (or every change is already undone)`,
        );
      }
      const previous = stack[stack.length - 1] ?? null;
      if (previous === null) {
        const created = await readIfExists(ctx.root, rel);
        await removeFile(ctx.root, rel);
        stack.pop();
        return {
          output: `ok: undid the creation of ${rel}; the file is deleted`,
          changedFiles: [rel],
          diff: stepDiff(rel, created.text, null),
        };
      }
      const current = await readIfExists(ctx.root, rel);
      if (current.text === null) await ensureParentDirs(ctx.root, rel);
      await writeTextInside(ctx.root, rel, previous, "any");
      // Pop only once the write succeeded, so a failed undo can be retried.
      stack.pop();
      const lines = splitLines(previous);
      const span = changedSpan(current.text === null ? [] : splitLines(current.text), lines);
      const left =
        stack.length === 0 ? "no more undo steps" : `${plural(stack.length, "more undo step")} left`;
      const region = renderRegion(rel, lines, span.start, span.afterEnd);
      return {
        output: `ok: undid the last edit to ${rel} (${left})\n${region}`,
        changedFiles: [rel],
        diff: stepDiff(rel, current.text, previous),
      };
    }),
});
