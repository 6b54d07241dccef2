import { copyFileSync, existsSync, lstatSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { patchPaths } from "../swebench/index.js";
import { git, withTrustedGit } from "../workspace/index.js";
import type { TrustedRepo } from "./apply-patch.js";

/**
 * Put every file the test patch touches back to its state at `base` (or remove it when the base has
 * none), as SWE-bench's eval script does before applying the test patch: a candidate's edits to the
 * graded tests — or a symlink planted where a test folder was — never survive into the test run.
 * Returns the paths restored and removed, for the eval script.
 */
export async function restoreTestFiles(
  repo: TrustedRepo,
  base: string,
  testPatch: string,
  candidatePatch: string,
): Promise<{ restored: string[]; removed: string[] }> {
  const root = repo.checkout.root;
  // The checkout is fresh: only what the candidate's patch names can differ from the base.
  const touched = new Set(patchPaths(candidatePatch));
  const paths = patchPaths(testPatch).filter(
    (p) => touched.has(p) || [...touched].some((t) => p.startsWith(`${t}/`) || t.startsWith(`${p}/`)),
  );
  for (const p of paths) clearPath(root, p);
  const tracked = await filesAtBase(repo, base, paths);
  const restored = paths.filter((p) => tracked.has(p));
  const removed = paths.filter((p) => !tracked.has(p));
  if (restored.length > 0)
    await withTrustedGit(root, repo.gitDir, (env) =>
      git(root, ["checkout", base, "--", ...restored], { env }),
    );
  return { restored, removed };
}

/** Which of `paths` exist as files in `base`. */
async function filesAtBase(repo: TrustedRepo, base: string, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await git(repo.checkout.root, ["ls-tree", "-r", "-z", "--name-only", base, "--", ...paths], {
    env: { GIT_DIR: repo.gitDir },
  });
  return new Set(out.split("\0").filter((p) => p !== ""));
}

/**
 * Remove whatever is at `rel` — file, folder or symlink — and any non-folder in the way above it,
 * without following a symlink anywhere: the candidate's tree is not trusted.
 */
function clearPath(root: string, rel: string): void {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..")) return; // patchPaths never yields one; a git diff cannot name one
  let dir = root;
  for (const [i, part] of parts.entries()) {
    const path = join(dir, part);
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(path);
    } catch {
      return; // nothing here, so nothing below either
    }
    const last = i === parts.length - 1;
    if (last || !st.isDirectory()) {
      rmSync(path, { recursive: true, force: true });
      return;
    }
    dir = path;
  }
}
