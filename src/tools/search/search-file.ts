import { readFileSync } from "node:fs";
import { z } from "zod";
import { collectLines, EVERY_PATH } from "./collect.js";
import type { SearchOptions } from "./limits.js";
import { byPathThenLine, cutLine, multiLineTerm, plural, withNotes } from "./results.js";
import { resolveScope } from "./scope.js";
import { defineSearchTool, literalQuery } from "./search-tool.js";

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
  return defineSearchTool(options, {
    name: "search_file",
    description: DESCRIPTION,
    schema: searchFileSchema,
    query: (input) => `"${input.term}"`,
    narrowing: "use a more specific term, or view the file and scroll to the part you need",
    plan(input, ctx) {
      if (input.term.includes("\n")) return { ok: false, result: multiLineTerm() };
      const target = input.path ?? ctx.editor.openFile;
      if (target === undefined) {
        return {
          ok: false,
          result: {
            output:
              "No file is open and no path was given. Call view on a file first, or pass path to say which file to search.",
            error: "no_file_open",
          },
        };
      }
      const resolved = resolveScope(ctx.root, target, "file");
      if (!resolved.ok) return resolved;
      const { scope } = resolved;
      return {
        ok: true,
        shown: scope.shown,
        collect: (run) => collectLines(run, literalQuery(input.term, scope), EVERY_PATH),
      };
    },
    tooMany: { counted: (t) => plural(t, "matching line"), unit: "line" },
    list(hits, notes, input, shown) {
      const lines = hits.sort(byPathThenLine).map((hit) => `Line ${hit.line}: ${cutLine(hit.text)}`);
      return withNotes(
        [
          `Found ${plural(lines.length, "match", "matches")} for "${input.term}" in ${shown}:`,
          ...lines,
          `End of matches for "${input.term}" in ${shown}`,
        ],
        notes,
      );
    },
  });
}
