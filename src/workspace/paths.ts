import { lstatSync, readlinkSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

/** Same bound as Linux's MAXSYMLINKS: a chain longer than this is a loop or an attack, so refuse. */
export const MAX_SYMLINK_EXPANSIONS = 40;

export type PathResolution =
  | {
      ok: true /** real absolute path */;
      abs: string /** relative to the root, "" for the root */;
      rel: string;
    }
  | { ok: false; error: string };

/** True when `abs` is `root` or below it. Both must be absolute and normalised. */
export function isWithin(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root.endsWith(sep) ? root : root + sep);
}

function components(path: string): string[] {
  return path.split("/").filter((c) => c !== "" && c !== ".");
}

/**
 * Resolve a model-supplied path the way the kernel would, one component at a time, and accept it only
 * if the real location is inside `root`. Relative paths are taken from the root; `..` is clamped at
 * `/`; every symlink met on the way is expanded (at most MAX_SYMLINK_EXPANSIONS times). Components that
 * do not exist yet are appended as they are (a file about to be created). Anything we cannot inspect
 * is refused rather than guessed. `root` must itself be a real (symlink-free) absolute path.
 */
export function resolveInside(root: string, input: string): PathResolution {
  if (input.includes("\0")) return { ok: false, error: `path contains a NUL byte: ${JSON.stringify(input)}` };
  const start = isAbsolute(input) ? input : join(root, input);
  const pending = components(start);
  let current = "/";
  let expansions = 0;
  let missing = false;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === "..") {
      current = current === "/" ? "/" : current.slice(0, current.lastIndexOf("/")) || "/";
      continue;
    }
    const candidate = current === "/" ? `/${part}` : `${current}/${part}`;
    if (missing) {
      current = candidate;
      continue;
    }
    let isLink = false;
    try {
      isLink = lstatSync(candidate).isSymbolicLink();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        missing = true;
        current = candidate;
        continue;
      }
      return {
        ok: false,
        error: `cannot inspect ${candidate} (${code ?? "unknown error"}); refusing the path`,
      };
    }
    if (!isLink) {
      current = candidate;
      continue;
    }
    expansions += 1;
    if (expansions > MAX_SYMLINK_EXPANSIONS) {
      return {
        ok: false,
        error: `too many symbolic links while resolving ${input} (a loop?); refusing the path`,
      };
    }
    const target = readlinkSync(candidate);
    if (isAbsolute(target)) current = "/";
    pending.unshift(...components(target));
  }
  if (!isWithin(root, current)) {
    return {
      ok: false,
      error: `${input} resolves to ${current}, outside the workspace ${root}; use a path inside the workspace`,
    };
  }
  return { ok: true, abs: current, rel: relative(root, current) };
}
