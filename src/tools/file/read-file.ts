import { z } from "zod";
import { defineTool, type ToolResult } from "../types.js";
import { prose } from "./prose.js";
import { asResult, failure } from "./results.js";
import { numberedRange, splitLines } from "./text.js";
import { readWorkspaceText } from "./workspace-io.js";

/** SPEC cap: 400 numbered lines is about 4–6k tokens, a whole module in one call without flooding. */
export const READ_FILE_MAX_LINES = 400;

export const readFileTool = defineTool({
  name: "read_file",
  description: prose("read_file.txt"),
  kind: "read",
  schema: z.object({
    path: z.string().describe("File to read, relative to the workspace root (or absolute inside it)."),
    offset: z.number().int().min(1).optional().describe("First line to return, counting from 1. Default 1."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(READ_FILE_MAX_LINES)
      .optional()
      .describe(`How many lines to return, at most ${READ_FILE_MAX_LINES}. Default ${READ_FILE_MAX_LINES}.`),
  }),
  execute: ({ path, offset = 1, limit = READ_FILE_MAX_LINES }, ctx): Promise<ToolResult> =>
    asResult(async () => {
      const file = await readWorkspaceText(ctx.root, path);
      const lines = splitLines(file.text);
      const total = lines.length;
      if (total === 0) return { output: "(empty file)" };
      if (offset > total) {
        return failure(
          "out_of_range",
          `offset ${offset} is out of range; ${file.rel} has ${total} lines — use an offset between 1 and ${total}`,
        );
      }
      const last = Math.min(total, offset + limit - 1);
      const out = numberedRange(lines, offset, last);
      if (last < total) {
        out.push(
          `(file continues: lines ${offset}-${last} of ${total} shown; call read_file with offset=${last + 1} for more)`,
        );
      }
      return { output: out.join("\n") };
    }),
});
