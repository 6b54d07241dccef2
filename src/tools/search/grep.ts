import { readFileSync } from "node:fs";
import { z } from "zod";
import { collectLines } from "./collect.js";
import { allFiles, planFilter } from "./filter.js";
import type { SearchOptions } from "./limits.js";
import { byPathThenLine, cutLine, plural, withNotes } from "./results.js";
import { resolveScope } from "./scope.js";
import { defineSearchTool } from "./search-tool.js";

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
  return defineSearchTool(options, {
    name: "grep",
    description: DESCRIPTION,
    schema: grepSchema,
    query: (input) => `regex "${input.pattern}"${input.glob === undefined ? "" : ` (glob "${input.glob}")`}`,
    narrowing:
      'use a more specific pattern, set path to a subdirectory or a file, or add a glob such as "*.py" to search one kind of file',
    plan(input, ctx) {
      if (input.pattern.includes("\n")) {
        return {
          ok: false,
          result: {
            output:
              "grep matches one line at a time, so the pattern cannot contain a newline. Search for one line of the text.",
            error: "invalid_arguments",
          },
        };
      }
      const resolved = resolveScope(ctx.root, input.path, "any");
      if (!resolved.ok) return resolved;
      const filter =
        input.glob === undefined
          ? allFiles(resolved.scope)
          : planFilter(ctx.root, resolved.scope, input.glob, "auto");
      if (!filter.ok) return filter;
      const flags = [...(input.ignore_case === true ? ["--ignore-case"] : []), ...filter.flags];
      return {
        ok: true,
        shown: resolved.scope.shown,
        nothingCanMatch: filter.nothingCanMatch,
        // `--` so a pattern such as "-foo" is a pattern, never a flag.
        collect: (run) => collectLines(run, { flags, tail: ["--", input.pattern, filter.scope.arg] }, filter),
      };
    },
    tooMany: { counted: (t, f) => `${plural(t, "matching line")} in ${plural(f, "file")}`, unit: "line" },
    list: (hits, notes) =>
      withNotes(
        hits.sort(byPathThenLine).map((hit) => `${hit.path}:${hit.line}:${cutLine(hit.text)}`),
        notes,
      ),
  });
}
