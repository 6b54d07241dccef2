import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool } from "../types.js";
import { collectLines, EVERY_PATH, type SearchRun } from "./collect.js";
import type { SearchOptions } from "./limits.js";
import { byPathThenLine, cutLine, multiLineTerm, noMatches, plural, tooMany, withNotes } from "./results.js";
import { resolveScope } from "./scope.js";

const DESCRIPTION = readFileSync(new URL("./search-file.txt", import.meta.url), "utf8");

export const searchFileSchema = z.object({
  term: z.string().min(1).describe("Literal text to look for (no regex; every character matches itself)."),
  path: z
    .string()
    .optional()
    .describe(
      "File to search, relative to the workspace root. Default: the file currently open in the viewer.",
    ),
});

export function createSearchFileTool(options: SearchOptions) {
  return defineTool({
    name: "search_file",
    description: DESCRIPTION,
    schema: searchFileSchema,
    kind: "read",
    async execute(input, ctx) {
      if (input.term.includes("\n")) return multiLineTerm();
      const target = input.path ?? ctx.editor.openFile;
      if (target === undefined) {
        return {
          output:
            "No file is open and no path was given. Call view on a file first, or pass path to say which file to search.",
          error: "no_file_open",
        };
      }
      const resolved = resolveScope(ctx.root, target, "file");
      if (!resolved.ok) return resolved.result;
      const { scope } = resolved;
      const run: SearchRun = {
        options,
        root: ctx.root,
        signal: ctx.signal,
        query: `"${input.term}"`,
        narrowing: "use a more specific term, or view the file and scroll to the part you need",
      };
      const collected = await collectLines(
        run,
        { flags: ["--fixed-strings"], tail: ["--", input.term, scope.arg] },
        EVERY_PATH,
      );
      switch (collected.kind) {
        case "failed":
          return collected.result;
        case "too_many":
          return tooMany(run, scope.shown, collected, (t) => plural(t, "matching line"), "line");
        case "ok": {
          if (collected.items.length === 0) return noMatches(run, scope.shown, collected.notes);
          const lines = collected.items
            .sort(byPathThenLine)
            .map((hit) => `Line ${hit.line}: ${cutLine(hit.text)}`);
          return {
            output: withNotes(
              [
                `Found ${plural(lines.length, "match", "matches")} for "${input.term}" in ${scope.shown}:`,
                ...lines,
                `End of matches for "${input.term}" in ${scope.shown}`,
              ],
              collected.notes,
            ),
          };
        }
      }
    },
  });
}
