import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { git } from "../git.js";
import type { WorkspaceDiff } from "./diff.js";
import type { CheckoutContext, WorkspacePatch } from "./types.js";

/**
 * The checkout's changes against its snapshot's base commit as a git diff (new files included,
 * binary-safe), without writing anything into the checkout: the index and the blobs that `git add`
 * makes go to a scratch directory. The base's objects are read from the snapshot's own object store
 * (an alternate), not the checkout's: git "freshens" an object it finds by touching its mtime, which
 * on an overlay would copy the object up; in the read-only snapshot that fails harmlessly and git
 * writes its copy to the scratch directory instead.
 *
 * `snapshot.index` (the snapshot's `.git/index`, which matches the base commit) seeds the scratch
 * index, so git re-hashes only the files whose stat data changed instead of the whole tree. Stat data
 * cannot be trusted for `modified` (what the structured diff found changed by content): git compares
 * whole seconds here, and an edit of the same size within the second the snapshot was taken looks
 * clean to it — the patch then silently left the edit out (found under load: `acilab agent --apply`
 * applied an empty patch). Those paths leave the seed index first, so git hashes them.
 *
 * `exclude`: paths git must leave as they are in the base — what a patch cannot carry (a FIFO in
 * place of a tracked file makes `git add` fail outright). They reach git through a pathspec file,
 * as literal paths, however many and however long.
 */
export async function gitDiffAgainstBase(
  root: string,
  base: string,
  snapshot: { objects: string; index: string | undefined },
  exclude: readonly string[] = [],
  modified: readonly string[] = [],
): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), "acilab-gitdiff-"));
  const env = {
    // The snapshot's repository (read-only, ours), not the checkout's .git: a sandboxed program can
    // rewrite that one's config to make the host's git run its programs (see dirtyPaths in git.ts).
    GIT_DIR: dirname(snapshot.objects),
    GIT_WORK_TREE: root,
    GIT_INDEX_FILE: join(scratch, "index"),
    GIT_OBJECT_DIRECTORY: join(scratch, "objects"),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: snapshot.objects,
  };
  try {
    await mkdir(env.GIT_OBJECT_DIRECTORY);
    if (snapshot.index === undefined) await git(root, ["read-tree", base], { env });
    else {
      await copyFile(snapshot.index, env.GIT_INDEX_FILE);
      if (modified.length > 0) {
        const stale = join(scratch, "modified");
        await writeFile(stale, modified.map((p) => `:(literal)${p}`).join("\0"));
        await git(
          root,
          [
            "rm",
            "--cached",
            "-q",
            "--ignore-unmatch",
            `--pathspec-from-file=${stale}`,
            "--pathspec-file-nul",
          ],
          { env },
        );
      }
    }
    const add = ["add", "-A"];
    if (exclude.length > 0) {
      const pathspecs = join(scratch, "pathspecs");
      await writeFile(pathspecs, [".", ...exclude.map((p) => `:(exclude,literal)${p}`)].join("\0"));
      add.push(`--pathspec-from-file=${pathspecs}`, "--pathspec-file-nul");
    }
    await git(root, add, { env });
    return await git(root, ["diff", "--cached", "--binary", "--no-ext-diff", "--no-textconv", base], { env });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * A checkout's patch: its structured diff says what git must leave out, git says the rest. The base's
 * objects and the seed index are the snapshot's (`ctx`), whichever kind of checkout `root` is.
 */
export async function patchOf(
  diff: WorkspaceDiff,
  root: string,
  ctx: Pick<CheckoutContext, "lower" | "base" | "baseIndex">,
): Promise<WorkspacePatch> {
  const patch = await gitDiffAgainstBase(
    root,
    ctx.base,
    { objects: join(ctx.lower, ".git", "objects"), index: ctx.baseIndex },
    diff.uncarried.map((u) => u.path),
    // Never an uncarried path: out of the index and left out of `add`, it would read as deleted.
    diff.modified.filter((p) => !diff.uncarried.some((u) => u.path === p)),
  );
  return { diff: patch, uncarried: diff.uncarried };
}
