import { z } from "zod";
import type { EditGuard } from "../lint/index.js";
import { defineTool, type ToolResult } from "../types.js";
import { commit } from "./commit.js";
import { prose } from "./prose.js";
import { asResult, failure, plural } from "./results.js";
import { readIfExists } from "./workspace-io.js";

const schema = z.object({
  path: z
    .string()
    .describe("Path of the new file, relative to the workspace root; missing directories are created."),
  content: z.string().describe("The complete content of the new file."),
});

export function makeCreateFileTool(guard: EditGuard) {
  return defineTool({
    name: "create_file",
    description: prose("create_file.txt"),
    kind: "edit",
    schema,
    execute: ({ path, content }, ctx): Promise<ToolResult> =>
      asResult(async () => {
        const existing = await readIfExists(ctx.root, path);
        const rel = existing.rel;
        if (existing.text !== null) {
          return failure(
            "already_exists",
            `${rel} already exists; create_file only makes new files — change it with str_replace (view it first)`,
          );
        }
        const done = await commit(ctx, guard, { rel, before: null, after: content, mode: "new" });
        if (!done.ok) return done.result;
        const dirs = done.createdDirs.length > 0 ? `; created ${done.createdDirs.join(", ")}/` : "";
        return {
          output: `ok: created ${rel} (${plural(done.lines.length, "line")})${dirs}`,
          changedFiles: [rel],
          diff: done.diff,
        };
      }),
  });
}
