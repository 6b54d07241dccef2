import { z } from "zod";
import type { EditGuard } from "../lint/index.js";
import { defineTool, type ToolResult } from "../types.js";
import { commit, renderRegion } from "./commit.js";
import { prose } from "./prose.js";
import { asResult, failure } from "./results.js";
import { eolOf, findAll, lineAtOffset, looseMatchLine, withEol } from "./text.js";
import { readWorkspaceText, requireExact } from "./workspace-io.js";

/** Match lines listed on an ambiguous edit; past 100 the text is far too common and the count says so. */
export const MAX_LISTED_MATCH_LINES = 100;

const schema = z.object({
  path: z.string().describe("File to edit, relative to the workspace root (or absolute inside it)."),
  old: z
    .string()
    .describe(
      "The exact text to replace, copied from the file including whitespace; it must occur exactly once.",
    ),
  new: z.string().describe("The text to put in its place (may be empty to delete `old`)."),
});

function matchLines(text: string, offsets: readonly number[]): string {
  const shown = offsets.slice(0, MAX_LISTED_MATCH_LINES).map((o) => String(lineAtOffset(text, o)));
  const more = offsets.length - shown.length;
  return shown.join(", ") + (more > 0 ? ` and ${more} more` : "");
}

export function makeStrReplaceTool(guard: EditGuard) {
  return defineTool({
    name: "str_replace",
    description: prose("str_replace.txt"),
    kind: "edit",
    schema,
    execute: ({ path, old, new: replacement }, ctx): Promise<ToolResult> =>
      asResult(async () => {
        const file = await readWorkspaceText(ctx.root, path);
        const text = requireExact(file);
        const rel = file.rel;
        if (old === "") {
          return failure(
            "invalid_arguments",
            "old is empty; give the exact text to replace (copy it from view), or use insert to add lines",
          );
        }
        if (old === replacement) {
          return failure(
            "invalid_arguments",
            "old and new are identical, so nothing would change; put the changed text in new",
          );
        }
        let needle = old;
        let substitute = replacement;
        let offsets = findAll(text, needle);
        // A CRLF file and a model that types "\n": match the lines the model meant.
        if (offsets.length === 0 && eolOf(text) === "\r\n" && old.includes("\n") && !old.includes("\r")) {
          needle = withEol(old, "\r\n");
          substitute = withEol(replacement, "\r\n");
          offsets = findAll(text, needle);
        }
        const [at] = offsets;
        if (at === undefined) {
          const near = looseMatchLine(text, old);
          const hint =
            near === undefined ? "" : ` (text like it starts at line ${near}, with different whitespace)`;
          return failure(
            "no_match",
            `no match for old in ${rel}${hint}; the file is unchanged — view the file and copy the exact text, including whitespace`,
          );
        }
        if (offsets.length > 1) {
          return failure(
            "multiple_matches",
            `${offsets.length} matches for old in ${rel} at lines ${matchLines(text, offsets)} — include more surrounding lines so it matches exactly once`,
          );
        }
        const after = text.slice(0, at) + substitute + text.slice(at + needle.length);
        const done = await commit(ctx, guard, { rel, before: text, after, mode: "existing" });
        if (!done.ok) return done.result;
        const line = lineAtOffset(text, at);
        const region = renderRegion(rel, done.lines, done.span.start, done.span.afterEnd);
        return {
          output: `ok: replaced 1 occurrence at line ${line} in ${rel}\n${region}`,
          changedFiles: [rel],
          diff: done.diff,
        };
      }),
  });
}
