import { readFileSync } from "node:fs";
import { z } from "zod";
import { collectFiles } from "./collect.js";
import { planFilter } from "./filter.js";
import type { SearchOptions } from "./limits.js";
import { comparePaths, plural } from "./results.js";
import { resolveScope } from "./scope.js";
import { defineSearchTool } from "./search-tool.js";

const DESCRIPTION = readFileSync(new URL("./find-file.txt", import.meta.url), "utf8");

export const findFileSchema = z.object({
  name: z
    .string()
    .min(1)
    .describe(
      'File name or file-name glob, matched against the name only (not the directory), e.g. "core.py", "*.py" or "test_*.{py,pyi}".',
    ),
  dir: z
    .string()
    .optional()
    .describe("Directory to search below, relative to the workspace root. Default: the whole workspace."),
});

export function createFindFileTool(options: SearchOptions) {
  return defineSearchTool(options, {
    name: "find_file",
    description: DESCRIPTION,
    schema: findFileSchema,
    query: (input) => `"${input.name}"`,
    narrowing:
      'use a more specific name (e.g. "test_*.py" rather than "*.py"), or pass dir to search one directory',
    plan(input, ctx) {
      if (input.name.includes("/")) {
        return {
          ok: false,
          result: {
            output: `find_file matches file names only, and "${input.name}" contains a "/". Use glob for path patterns such as "src/**/*.py", or pass the directory as dir.`,
            error: "invalid_arguments",
          },
        };
      }
      const resolved = resolveScope(ctx.root, input.dir, "dir");
      if (!resolved.ok) return resolved;
      const filter = planFilter(ctx.root, resolved.scope, input.name, "name");
      if (!filter.ok) return filter;
      return {
        ok: true,
        shown: resolved.scope.shown,
        collect: (run) => collectFiles(run, { flags: filter.flags, tail: ["--", filter.scope.arg] }, filter),
      };
    },
    tooMany: { counted: (_t, f) => plural(f, "matching file"), unit: "file" },
    list: (paths, _notes, input, shown) =>
      [
        `Found ${plural(paths.length, "match", "matches")} for "${input.name}" in ${shown}:`,
        ...paths.sort(comparePaths),
      ].join("\n"),
  });
}
