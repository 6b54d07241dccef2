import { readFileSync } from "node:fs";
import { z } from "zod";
import { collectCounts } from "./collect.js";
import type { SearchOptions } from "./limits.js";
import { comparePaths, multiLineTerm, plural } from "./results.js";
import { resolveScope } from "./scope.js";
import { defineSearchTool, literalQuery } from "./search-tool.js";

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
  return defineSearchTool(options, {
    name: "search_dir",
    description: DESCRIPTION,
    schema: searchDirSchema,
    query: (input) => `"${input.term}"`,
    narrowing:
      'use a more specific term, pass a subdirectory as dir, or use grep with a glob (e.g. "*.py") to search one kind of file',
    plan(input, ctx) {
      if (input.term.includes("\n")) return { ok: false, result: multiLineTerm() };
      const resolved = resolveScope(ctx.root, input.dir, "dir");
      if (!resolved.ok) return resolved;
      const { scope } = resolved;
      return {
        ok: true,
        shown: scope.shown,
        collect: (run) => collectCounts(run, literalQuery(input.term, scope)),
      };
    },
    tooMany: {
      counted: (t, f) => `${plural(t, "match", "matches")} in ${plural(f, "file")}`,
      unit: "file",
    },
    list(counts, _notes, input, shown) {
      const files = counts.sort((a, b) => comparePaths(a.path, b.path));
      const total = files.reduce((sum, f) => sum + f.count, 0);
      return [
        `Found ${plural(total, "match", "matches")} for "${input.term}" in ${shown}:`,
        ...files.map((f) => `${f.path} (${plural(f.count, "match", "matches")})`),
        `End of matches for "${input.term}" in ${shown}`,
      ].join("\n");
    },
  });
}
