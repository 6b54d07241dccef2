/**
 * The `repo_map` tool: the repository's most used definitions, ranked by who uses whose names
 * (src/repomap), optionally focused on the files and names the task is about. It reads the workspace
 * from the host like the other read tools; links out of the workspace are not followed.
 */
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { buildRepoMap, DEFAULT_MAP_TOKENS } from "../repomap/index.js";
import { defineTool, failure, type ToolContext } from "../tools/index.js";
import { resolveInside } from "../workspace/index.js";

const DESCRIPTION = readFileSync(new URL("./repo_map.txt", import.meta.url), "utf8");

/** The largest map a call may ask for: about a tenth of a small context window, a fair price for an overview. */
export const REPO_MAP_MAX_TOKENS = 8192;

export interface RepoMapToolOptions {
  /** Where tags are kept between processes (one JSON file per workspace); absent = in memory only. */
  cacheDir?: string;
}

const Input = z.object({
  paths: z
    .array(z.string().min(1))
    .optional()
    .describe("files or folders to focus on, workspace-relative (e.g. src/auth/ or src/auth/login.py)"),
  identifiers: z
    .array(z.string().min(1))
    .optional()
    .describe("names the task is about (functions, classes, types)"),
  max_tokens: z
    .number()
    .int()
    .positive()
    .max(REPO_MAP_MAX_TOKENS)
    .optional()
    .describe(`the map's size in tokens (default ${DEFAULT_MAP_TOKENS}, at most ${REPO_MAP_MAX_TOKENS})`),
});

export function createRepoMapTool(options: RepoMapToolOptions = {}) {
  return defineTool({
    name: "repo_map",
    description: DESCRIPTION,
    schema: Input,
    kind: "read",
    execute: async (input, ctx: ToolContext) => {
      const focus: string[] = [];
      for (const path of input.paths ?? []) {
        const resolved = resolveInside(ctx.root, path);
        if (!resolved.ok) return failure("outside_workspace", resolved.error);
        if (!existsSync(resolved.abs))
          return failure(
            "not_found",
            `${path} does not exist; give a file or folder in the workspace (find_file or glob can locate it)`,
          );
        if (resolved.rel !== "") focus.push(resolved.rel);
      }
      const map = await buildRepoMap({
        root: ctx.root,
        mentioned: { files: focus, idents: input.identifiers ?? [] },
        budgetTokens: input.max_tokens ?? DEFAULT_MAP_TOKENS,
        ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
        ...(ctx.gitDir ? { gitDir: ctx.gitDir } : {}),
      });
      const data = {
        files: map.files,
        definitions: map.definitions,
        skipped: map.skipped,
        parsed: map.parsed,
      };
      if (map.text === "")
        return {
          output:
            map.files === 0
              ? `no map: the workspace has no Python, TypeScript, JavaScript, Go or Rust files that could be read (${map.skipped} other files); use find_file or glob to look around`
              : `no map: ${map.files} source files define nothing that fits in ${input.max_tokens ?? DEFAULT_MAP_TOKENS} tokens; ask for a larger max_tokens`,
          data,
        };
      const footer = `[repo map: ${map.definitions} definitions from ${map.files} source files; ${map.skipped} other files skipped]`;
      return { output: `${map.text}${footer}`, data };
    },
  });
}
