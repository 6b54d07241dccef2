/**
 * The path patterns of `Read(…)` and `Edit(…)` rules, as Claude Code writes them (gitignore style):
 *
 * - `//abs/path` — an absolute path;
 * - `~/x` — under the user's home;
 * - `/x` — under the settings file's project root (for a repository's own settings: the repository);
 * - `./x` or `x/y` — under the repository root; a bare name without a slash (`*.env`, `secrets`)
 *   matches at any depth below it, as in .gitignore.
 *
 * `*`, `**`, `?`, braces and classes are picomatch's; dot files match like any other. A pattern that
 * names a directory matches every file under it (`Edit(src)` covers `src/a/b.ts`).
 */
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import picomatch from "picomatch";

export interface PathBases {
  /** The repository the call's relative paths are resolved against. */
  repo: string;
  /** The project root of the settings file the rule came from (for `/x`). */
  root: string;
  home?: string;
}

const compiled = new Map<string, (path: string) => boolean>();

function matcher(glob: string): (path: string) => boolean {
  let m = compiled.get(glob);
  if (!m) {
    m = picomatch([glob, `${glob}/**`], { dot: true });
    compiled.set(glob, m);
  }
  return m;
}

/** Where a pattern is anchored, and the glob below that anchor. */
export function anchorOf(pattern: string, bases: PathBases): { base: string; glob: string } {
  const trimmed = pattern.replace(/\/+$/, "");
  if (trimmed.startsWith("//")) return { base: "/", glob: trimmed.slice(2) };
  if (trimmed === "~" || trimmed.startsWith("~/"))
    return { base: bases.home ?? homedir(), glob: trimmed.slice(2) };
  if (trimmed.startsWith("/")) return { base: bases.root, glob: trimmed.slice(1) };
  if (trimmed.startsWith("./")) return { base: bases.repo, glob: trimmed.slice(2) };
  return { base: bases.repo, glob: trimmed.includes("/") ? trimmed : `**/${trimmed}` };
}

/** Does the rule's pattern cover `path` (absolute, or relative to the repository)? */
export function pathMatches(pattern: string, path: string, bases: PathBases): boolean {
  const { base, glob } = anchorOf(pattern, bases);
  const target = resolve(bases.repo, path);
  const rel = relative(base, target);
  if (rel === ".." || rel.startsWith("../") || isAbsolute(rel)) return false;
  // The anchor itself (`Edit(//tmp)` against /tmp): only a pattern naming nothing below it covers it.
  if (rel === "") return glob === "" || glob === "**";
  return glob === "" || matcher(glob)(rel);
}
