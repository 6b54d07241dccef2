import { patchPaths } from "../swebench/index.js";
import { git } from "../workspace/index.js";

/**
 * The test files SWE-bench's eval script resets before applying the test patch, narrowed to the ones
 * a candidate could have changed: the test patch's paths that the candidate's patch names, or that
 * sit inside (or above) a path it names — a candidate that turned `tests` into a symlink touched
 * every file below it. Pure.
 */
export function testFilesToReset(testPatch: string, candidatePatch: string): string[] {
  const touched = new Set(patchPaths(candidatePatch));
  return patchPaths(testPatch).filter(
    (p) => touched.has(p) || [...touched].some((t) => p.startsWith(`${t}/`) || t.startsWith(`${p}/`)),
  );
}

/**
 * Which of `paths` are files at `base`, read from the trusted repository (the snapshot's, never the
 * checkout's .git): those are checked out again, the others removed.
 */
export async function splitByBase(
  gitDir: string,
  base: string,
  paths: string[],
): Promise<{ restore: string[]; remove: string[] }> {
  if (paths.length === 0) return { restore: [], remove: [] };
  const out = await git(gitDir, ["ls-tree", "-r", "-z", "--name-only", base, "--", ...paths], {
    env: { GIT_DIR: gitDir },
  });
  const tracked = new Set(out.split("\0").filter((p) => p !== ""));
  return { restore: paths.filter((p) => tracked.has(p)), remove: paths.filter((p) => !tracked.has(p)) };
}
