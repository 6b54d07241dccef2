import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool } from "../types.js";
import { collectFiles, type SearchRun } from "./collect.js";
import { planFilter } from "./filter.js";
import type { SearchOptions } from "./limits.js";
import { comparePaths, noMatches, plural, tooMany } from "./results.js";
import { resolveScope } from "./scope.js";

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
  return defineTool({
    name: "find_file",
    description: DESCRIPTION,
    schema: findFileSchema,
    kind: "read",
    async execute(input, ctx) {
      if (input.name.includes("/")) {
        return {
          output: `find_file matches file names only, and "${input.name}" contains a "/". Use glob for path patterns such as "src/**/*.py", or pass the directory as dir.`,
          error: "invalid_arguments",
        };
      }
      const resolved = resolveScope(ctx.root, input.dir, "dir");
      if (!resolved.ok) return resolved.result;
      const filter = planFilter(ctx.root, resolved.scope, input.name, "name");
      if (!filter.ok) return filter.result;
      const run: SearchRun = {
        options,
        root: ctx.root,
        signal: ctx.signal,
        query: `"${input.name}"`,
        narrowing:
          'use a more specific name (e.g. "test_*.py" rather than "*.py"), or pass dir to search one directory',
      };
      const shown = resolved.scope.shown;
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
        case "ok": {
          if (collected.items.length === 0) return noMatches(run, shown, collected.notes);
          const paths = collected.items.sort(comparePaths);
          return {
            output: [
              `Found ${plural(paths.length, "match", "matches")} for "${input.name}" in ${shown}:`,
              ...paths,
            ].join("\n"),
          };
        }
      }
    },
  });
}
