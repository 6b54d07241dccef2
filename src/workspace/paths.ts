import { lstatSync, readlinkSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

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
 * How a host path is shown to the model: workspace-relative inside the root, and never as itself
 * outside it — the host's layout (where checkouts live, whose they are) is not the agent's business.
 */
function shownInside(root: string, abs: string): string | undefined {
  if (!isWithin(root, abs)) return undefined;
  return abs === root ? "." : relative(root, abs);
}

/**
 * Resolve a model-supplied path the way the kernel would, one component at a time, and accept it only
 * if the real location is inside `root`. Relative paths are taken from the root; `..` is clamped at
 * `/`; every symlink met on the way is expanded (at most MAX_SYMLINK_EXPANSIONS times). Components that
 * do not exist yet are appended as they are (a file about to be created). Anything we cannot inspect
 * is refused rather than guessed. `root` must itself be a real (symlink-free) absolute path. Errors
 * speak in workspace paths (and the model's own words): never the host path of the root.
 */
export function resolveInside(root: string, input: string): PathResolution {
  if (input.includes("\0")) return { ok: false, error: `path contains a NUL byte: ${JSON.stringify(input)}` };
  const start = isAbsolute(input) ? input : join(root, input);
  const pending = components(start);
  let current = "/";
  let expansions = 0;
  let missing = false;
  /** The last symbolic link expanded, as the model may be shown it. */
  let lastLink: { at: string | undefined; target: string } | undefined;
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
      const at = shownInside(root, candidate);
      return {
        ok: false,
        error: `cannot inspect ${at ?? "a directory outside the workspace"} on the way to ${input} (${code ?? "unknown error"}); refusing the path`,
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
    lastLink = { at: shownInside(root, candidate), target };
    if (isAbsolute(target)) current = "/";
    pending.unshift(...components(target));
  }
  if (!isWithin(root, current)) {
    // Named only when the words alone stay inside: then a link took the path out.
    const byLink = lastLink !== undefined && isWithin(root, resolve(root, input));
    const via = byLink
      ? ` (through the symbolic link ${lastLink?.at === undefined ? "" : `${lastLink.at} `}→ ${lastLink?.target})`
      : "";
    return {
      ok: false,
      error: `${input} is outside the workspace${via}; use a path inside it, relative to its root (e.g. src/main.py)`,
    };
  }
  return { ok: true, abs: current, rel: relative(root, current) };
}
