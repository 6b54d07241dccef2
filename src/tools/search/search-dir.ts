import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool } from "../types.js";
import { collectCounts, type SearchRun } from "./collect.js";
import type { SearchOptions } from "./limits.js";
import { comparePaths, multiLineTerm, noMatches, plural, tooMany } from "./results.js";
import { resolveScope } from "./scope.js";

const DESCRIPTION = readFileSync(new URL("./search-dir.txt", import.meta.url), "utf8");

export const searchDirSchema = z.object({
  term: z
    .string()
    .min(1)
    .describe(
      'Literal text to look for (no regex; every character matches itself), e.g. "def parse_config".',
    ),
  dir: z
    .string()
    .optional()
    .describe("Directory to search below, relative to the workspace root. Default: the whole workspace."),
});

export function createSearchDirTool(options: SearchOptions) {
  return defineTool({
    name: "search_dir",
    description: DESCRIPTION,
    schema: searchDirSchema,
    kind: "read",
    async execute(input, ctx) {
      if (input.term.includes("\n")) return multiLineTerm();
      const resolved = resolveScope(ctx.root, input.dir, "dir");
      if (!resolved.ok) return resolved.result;
      const { scope } = resolved;
      const run: SearchRun = {
        options,
        root: ctx.root,
        signal: ctx.signal,
        query: `"${input.term}"`,
        narrowing:
          'use a more specific term, pass a subdirectory as dir, or use grep with a glob (e.g. "*.py") to search one kind of file',
      };
      // -F: the term is literal text, so "foo(" or "a.b" need no escaping.
      const collected = await collectCounts(run, {
        flags: ["--fixed-strings"],
        tail: ["--", input.term, scope.arg],
      });
      switch (collected.kind) {
        case "failed":
          return collected.result;
        case "too_many":
          return tooMany(
            run,
            scope.shown,
            collected,
            (t, f) => `${plural(t, "match", "matches")} in ${plural(f, "file")}`,
            "file",
          );
        case "ok": {
          if (collected.items.length === 0) return noMatches(run, scope.shown, collected.notes);
          const files = collected.items.sort((a, b) => comparePaths(a.path, b.path));
          const total = files.reduce((sum, f) => sum + f.count, 0);
          return {
            output: [
              `Found ${plural(total, "match", "matches")} for "${input.term}" in ${scope.shown}:`,
              ...files.map((f) => `${f.path} (${plural(f.count, "match", "matches")})`),
              `End of matches for "${input.term}" in ${scope.shown}`,
            ].join("\n"),
          };
        }
      }
    },
  });
}
