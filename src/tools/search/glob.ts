import { readFileSync } from "node:fs";
import { z } from "zod";
import { collectFiles } from "./collect.js";
import { planFilter } from "./filter.js";
import type { SearchOptions } from "./limits.js";
import { comparePaths, plural } from "./results.js";
import { resolveScope } from "./scope.js";
import { defineSearchTool } from "./search-tool.js";

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
  return defineSearchTool(options, {
    name: "glob",
    description: DESCRIPTION,
    schema: globSchema,
    query: (input) => `glob "${input.pattern}"`,
    narrowing:
      'use a more specific pattern (e.g. "src/api/**/*.ts" rather than "**/*.ts"), or set path to a subdirectory',
    plan(input, ctx) {
      const resolved = resolveScope(ctx.root, input.path, "dir");
      if (!resolved.ok) return resolved;
      const filter = planFilter(ctx.root, resolved.scope, input.pattern, "path");
      if (!filter.ok) return filter;
      return {
        ok: true,
        shown: resolved.scope.shown,
        nothingCanMatch: filter.nothingCanMatch,
        collect: (run) => collectFiles(run, { flags: filter.flags, tail: ["--", filter.scope.arg] }, filter),
      };
    },
    tooMany: { counted: (_t, f) => plural(f, "matching file"), unit: "file" },
    list: (paths) => paths.sort(comparePaths).join("\n"),
  });
}
