import { readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool } from "../types.js";
import { collectLines, type SearchRun } from "./collect.js";
import { allFiles, planFilter } from "./filter.js";
import type { SearchOptions } from "./limits.js";
import { byPathThenLine, cutLine, noMatches, plural, tooMany, withNotes } from "./results.js";
import { resolveScope } from "./scope.js";

const DESCRIPTION = readFileSync(new URL("./grep.txt", import.meta.url), "utf8");

export const grepSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Regular expression in ripgrep (Rust regex) syntax, matched against each line, e.g. "def \\w+_handler" or "TODO|FIXME".',
    ),
  path: z
    .string()
    .optional()
    .describe("File or directory to search, relative to the workspace root. Default: the whole workspace."),
  glob: z
    .string()
    .optional()
    .describe(
      'Only search files matching this glob: "*.py" matches file names at any depth; "src/**/*.ts" matches paths relative to path; a leading "!" excludes.',
    ),
  ignore_case: z.boolean().optional().describe("Match letters case-insensitively. Default: false."),
});

export function createGrepTool(options: SearchOptions) {
  return defineTool({
    name: "grep",
    description: DESCRIPTION,
    schema: grepSchema,
    kind: "read",
    async execute(input, ctx) {
      if (input.pattern.includes("\n")) {
        return {
          output:
            "grep matches one line at a time, so the pattern cannot contain a newline. Search for one line of the text.",
          error: "invalid_arguments",
        };
      }
      const resolved = resolveScope(ctx.root, input.path, "any");
      if (!resolved.ok) return resolved.result;
      const filter =
        input.glob === undefined
          ? allFiles(resolved.scope)
          : planFilter(ctx.root, resolved.scope, input.glob, "auto");
      if (!filter.ok) return filter.result;
      const run: SearchRun = {
        options,
        root: ctx.root,
        signal: ctx.signal,
        query: `regex "${input.pattern}"${input.glob === undefined ? "" : ` (glob "${input.glob}")`}`,
        narrowing:
          'use a more specific pattern, set path to a subdirectory or a file, or add a glob such as "*.py" to search one kind of file',
      };
      const shown = resolved.scope.shown;
      if (filter.nothingCanMatch) return noMatches(run, shown, []);
      const flags = [...(input.ignore_case === true ? ["--ignore-case"] : []), ...filter.flags];
      // `--` so a pattern such as "-foo" is a pattern, never a flag.
      const collected = await collectLines(
        run,
        { flags, tail: ["--", input.pattern, filter.scope.arg] },
        filter,
      );
      switch (collected.kind) {
        case "failed":
          return collected.result;
        case "too_many":
          return tooMany(
            run,
            shown,
            collected,
            (t, f) => `${plural(t, "matching line")} in ${plural(f, "file")}`,
            "line",
          );
        case "ok": {
          if (collected.items.length === 0) return noMatches(run, shown, collected.notes);
          const lines = collected.items
            .sort(byPathThenLine)
            .map((hit) => `${hit.path}:${hit.line}:${cutLine(hit.text)}`);
          return { output: withNotes(lines, collected.notes) };
        }
      }
    },
  });
}
