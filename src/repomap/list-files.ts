/**
 * The files a repo map looks at: what git would commit (tracked, plus untracked files not ignored)
 * in a git work tree, else a walk that leaves out dependency and build output folders. Paths are
 * root-relative with `/`; symbolic links are never followed (the caller skips them).
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { git, withTrustedGit } from "../workspace/index.js";

/** Folders of installed dependencies, build output and VCS data: nobody's code to map. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(["node_modules", ".git", "dist", "build", "vendor"]);

/**
 * `gitDir`: a repository the host trusts for this work tree (a workspace's snapshot); without it
 * the tree's own .git is read — ls-files runs no hooks, filters or fsmonitor (git() turns those off).
 */
export async function listFiles(root: string, gitDir?: string): Promise<string[]> {
  if (gitDir !== undefined || existsSync(join(root, ".git"))) {
    const args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"];
    try {
      const out =
        gitDir === undefined
          ? await git(root, args)
          : await withTrustedGit(root, gitDir, (env) => git(root, args, { env }));
      return [...new Set(out.split("\0").filter((p) => p !== ""))].sort();
    } catch {
      // Not a usable repository after all (a bare .git file, a broken index): walk instead.
    }
  }
  const files: string[] = [];
  await walkInto(root, "", files);
  return files.sort();
}

async function walkInto(root: string, rel: string, out: string[]): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(rel === "" ? root : join(root, rel), { withFileTypes: true });
  } catch {
    return; // unreadable or vanished: nothing to map there
  }
  for (const entry of entries) {
    const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) await walkInto(root, path, out);
    } else if (entry.isFile() || entry.isSymbolicLink()) out.push(path); // links: listed to be counted skipped
  }
}
