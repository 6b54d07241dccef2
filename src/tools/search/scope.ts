import { statSync } from "node:fs";
import { resolveInside } from "../../workspace/index.js";
import type { ToolResult } from "../types.js";

/** Where a search runs, after the model's path has been resolved inside the workspace. */
export interface Scope {
  /** Workspace-relative, `/`-separated, "" for the root. */
  rel: string;
  /** The argument for rg: always `./…` so a name like `-x` or `-` is never a flag or stdin. */
  arg: string;
  /** How observations name it: the relative path, or "." for the root. */
  shown: string;
  isDir: boolean;
}

export type ScopeResult = { ok: true; scope: Scope } | { ok: false; result: ToolResult };

export function scopeFor(rel: string, isDir: boolean): Scope {
  return { rel, arg: rel === "" ? "." : `./${rel}`, shown: rel === "" ? "." : rel, isDir };
}

function isInsideGitDir(rel: string): boolean {
  return rel.split("/").includes(".git");
}

/**
 * Resolve a model-supplied `dir`/`path` through `resolveInside` (which expands symlinks and refuses
 * anything whose real location is outside the root) and check that it exists. The resolved path is
 * symlink-free, so rg is handed a real directory inside the workspace and, never following links
 * below it, cannot wander out.
 */
export function resolveScope(
  root: string,
  input: string | undefined,
  want: "dir" | "file" | "any",
): ScopeResult {
  const raw = input === undefined || input.trim() === "" ? "." : input;
  const resolved = resolveInside(root, raw);
  if (!resolved.ok) {
    return {
      ok: false,
      result: { output: `Cannot search ${raw}: ${resolved.error}`, error: "outside_workspace" },
    };
  }
  const rel = resolved.rel.split("\\").join("/");
  if (isInsideGitDir(rel)) {
    return {
      ok: false,
      result: {
        output: `${raw} is inside .git, git's internal storage, which the search tools never read. Search the working tree instead, or use git commands in the shell for history.`,
        error: "invalid_arguments",
      },
    };
  }
  let isDir: boolean;
  try {
    isDir = statSync(resolved.abs).isDirectory();
  } catch {
    return {
      ok: false,
      result: {
        output: `${raw} does not exist in the workspace. Use find_file or glob to locate it, or omit the path to search the whole workspace.`,
        error: "not_found",
      },
    };
  }
  if (want === "dir" && !isDir) {
    return {
      ok: false,
      result: {
        output: `${raw} is a file, not a directory. Pass a directory, or use search_file or grep with path set to this file.`,
        error: "invalid_arguments",
      },
    };
  }
  if (want === "file" && isDir) {
    return {
      ok: false,
      result: {
        output: `${raw} is a directory. search_file searches one file; use search_dir or grep for a directory.`,
        error: "is_directory",
      },
    };
  }
  return { ok: true, scope: scopeFor(rel, isDir) };
}

/** A workspace-relative path as seen from inside `scope` (what a path glob is matched against). */
export function relativeToScope(scope: Scope, path: string): string {
  if (!scope.isDir) return path.slice(path.lastIndexOf("/") + 1);
  return scope.rel === "" ? path : path.slice(scope.rel.length + 1);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
