import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool } from "../types.js";
import { collectFiles, type SearchRun } from "./collect.js";
import { planFilter } from "./filter.js";
import type { SearchOptions } from "./limits.js";
import { comparePaths, noMatches, plural, tooMany } from "./results.js";
import { resolveScope } from "./scope.js";

const DESCRIPTION = readFileSync(new URL("./glob.txt", import.meta.url), "utf8");

export const globSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Path glob relative to path, e.g. "src/**/*.ts", "**/test_*.py" or "*.md" (top level only).'),
  path: z
    .string()
    .optional()
    .describe(
      "Directory the pattern is relative to, relative to the workspace root. Default: the workspace root.",
    ),
});

export function createGlobTool(options: SearchOptions) {
  return defineTool({
    name: "glob",
    description: DESCRIPTION,
    schema: globSchema,
    kind: "read",
    async execute(input, ctx) {
      const resolved = resolveScope(ctx.root, input.path, "dir");
      if (!resolved.ok) return resolved.result;
      const filter = planFilter(ctx.root, resolved.scope, input.pattern, "path");
      if (!filter.ok) return filter.result;
      const run: SearchRun = {
        options,
        root: ctx.root,
        signal: ctx.signal,
        query: `glob "${input.pattern}"`,
        narrowing:
          'use a more specific pattern (e.g. "src/api/**/*.ts" rather than "**/*.ts"), or set path to a subdirectory',
      };
      const shown = resolved.scope.shown;
      if (filter.nothingCanMatch) return noMatches(run, shown, []);
      const collected = await collectFiles(
        run,
        { flags: filter.flags, tail: ["--", filter.scope.arg] },
        filter,
      );
      switch (collected.kind) {
        case "failed":
          return collected.result;
        case "too_many":
          return tooMany(run, shown, collected, (_t, f) => plural(f, "matching file"), "file");
        case "ok":
          if (collected.items.length === 0) return noMatches(run, shown, collected.notes);
          return { output: collected.items.sort(comparePaths).join("\n") };
      }
    },
  });
}
