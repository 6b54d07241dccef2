import { z } from "zod";
import type { EditGuard } from "../lint/index.js";
import { defineTool, type ToolResult } from "../types.js";
import { commit, renderRegion } from "./commit.js";
import { prose } from "./prose.js";
import { asResult, failure, plural } from "./results.js";
import { spliceLines, splitLines } from "./text.js";
import { readWorkspaceText, requireExact } from "./workspace-io.js";

const schema = z.object({
  path: z.string().describe("File to edit, relative to the workspace root (or absolute inside it)."),
  line: z
    .number()
    .int()
    .min(0)
    .describe(
      "Insert after this line (1-based); 0 inserts at the top of the file, the last line number appends.",
    ),
  text: z.string().describe("The lines to insert; a final newline is added if missing."),
});

export function makeInsertTool(guard: EditGuard) {
  return defineTool({
    name: "insert",
    description: prose("insert.txt"),
    kind: "edit",
    schema,
    execute: ({ path, line, text: body }, ctx): Promise<ToolResult> =>
      asResult(async () => {
        const file = await readWorkspaceText(ctx.root, path);
        const text = requireExact(file);
        const rel = file.rel;
        const total = splitLines(text).length;
        if (body === "")
          return failure(
            "invalid_arguments",
            "text is empty, so nothing would be inserted; give the lines to add",
          );
        if (line > total) {
          return failure(
            "out_of_range",
            `line ${line} is out of range; ${rel} has ${total} lines — use a line between 0 (top of the file) and ${total} (after the last line)`,
          );
        }
        const after = spliceLines(text, line + 1, line, body);
        const done = await commit(ctx, guard, { rel, before: text, after, mode: "existing" });
        if (!done.ok) return done.result;
        const count = plural(splitLines(body).length, "line");
        const where = line === 0 ? `at the top of ${rel}` : `after line ${line} in ${rel}`;
        const region = renderRegion(rel, done.lines, line + 1, line + splitLines(body).length);
        return { output: `ok: inserted ${count} ${where}\n${region}`, changedFiles: [rel], diff: done.diff };
      }),
  });
}
