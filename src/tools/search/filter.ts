import { statSync } from "node:fs";
import { resolveInside } from "../../workspace/index.js";
import type { ToolResult } from "../types.js";
import { EVERY_PATH, type PathFilter } from "./collect.js";
import { climbsOut, compileGlob, globSegments, literalPrefix, rgTypeGlob } from "./globs.js";
import { basename, relativeToScope, type Scope, scopeFor } from "./scope.js";

/**
 * A model's glob turned into: rg flags that narrow what rg prints (respecting ignore rules), the
 * directory rg starts in, and the exact test we apply to every path rg prints.
 */
export type FileFilter =
  | ({ ok: true; flags: string[]; scope: Scope; nothingCanMatch: boolean } & PathFilter)
  | { ok: false; result: ToolResult };

/** Everything rg prints is kept. */
export function allFiles(scope: Scope): FileFilter {
  return { ok: true, flags: [], scope, nothingCanMatch: false, ...EVERY_PATH };
}

/**
 * `name`: the glob matches a file's basename at any depth (find_file). `path`: it matches the path
 * relative to the scope (glob). `auto`: name without a `/`, path with one, and a leading `!` excludes —
 * rg's own conventions (grep).
 */
export function planFilter(
  root: string,
  scope: Scope,
  glob: string,
  mode: "name" | "path" | "auto",
): FileFilter {
  if (climbsOut(glob)) {
    return invalid(
      `The glob "${glob}" contains "..". Globs match below the searched directory; set path/dir instead.`,
    );
  }
  if (mode === "auto" && glob.startsWith("!") && glob.length > 1) {
    // rg's convention: a leading ! excludes. Neither a type filter nor a start directory can say "not".
    const inner = planFilter(root, scope, glob.slice(1), "auto");
    if (!inner.ok) return inner;
    return {
      ok: true,
      flags: [],
      scope,
      keep: (path) => !inner.keep(path),
      rgExact: false,
      nothingCanMatch: false,
    };
  }
  const byName = mode === "name" || (mode === "auto" && !glob.includes("/"));
  const normalized = byName ? glob : globSegments(glob).join("/");
  const compiled = compileGlob(normalized);
  if (!compiled.ok) {
    return invalid(
      `The glob "${glob}" is not valid: ${compiled.error}. Escape a literal [ or { with a backslash.`,
    );
  }
  const { regex } = compiled;
  const typeGlob = rgTypeGlob(normalized);
  const flags =
    typeGlob === undefined ? [] : ["--type-add", `acilabglob:${typeGlob}`, "--type", "acilabglob"];
  if (byName) {
    const keep = (path: string) => regex.test(basename(path));
    return { ok: true, flags, scope, keep, rgExact: typeGlob !== undefined, nothingCanMatch: false };
  }

  // Start rg at the glob's literal directories: `src/**/*.ts` need not walk `node_modules/`.
  let start = scope;
  let nothingCanMatch = false;
  const prefix = literalPrefix(normalized);
  if (scope.isDir && prefix.length > 0) {
    const wanted = [scope.rel, ...prefix].filter((s) => s !== "").join("/");
    const resolved = resolveInside(root, wanted);
    // rg never follows symlinks, so behind a link (or a missing directory) no file can match.
    if (!resolved.ok || resolved.rel !== wanted || !isDirectory(resolved.abs)) nothingCanMatch = true;
    else start = scopeFor(wanted, true);
  }
  // `dir/**/*.ts` started in `dir` with type `*.ts` is exactly what rg selects: counting can trust rg.
  const rgExact = typeGlob !== undefined && normalized === [...prefix, "**", typeGlob].join("/");
  const keep = (path: string) => regex.test(relativeToScope(scope, path));
  return { ok: true, flags, scope: start, keep, rgExact, nothingCanMatch };
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function invalid(output: string): FileFilter {
  return { ok: false, result: { output, error: "invalid_arguments" } };
}
