/**
 * The patch of a checkout never trusts the seeded index for a file the structured diff found changed
 * by content. Under load, an edit of the same size in the second the snapshot was taken looked clean
 * to git's stat check, and `acilab agent --apply` applied an empty patch. Here the index is made to
 * believe the file is clean outright (assume-unchanged), which is what stale stat data amounts to.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitDiffAgainstBase } from "./git-diff.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-git-diff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("gitDiffAgainstBase with a seeded index", () => {
  it("hashes the modified files whatever the seed index believes about them", async () => {
    const repo = join(dir, "repo");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, "notes.txt"), "todo: add\n");
    writeFileSync(join(repo, "keep.txt"), "same\n");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base");
    const base = git("rev-parse", "HEAD").trim();
    // The seed: an index whose entry for notes.txt says "unchanged, do not look".
    git("update-index", "--assume-unchanged", "notes.txt");
    const seed = join(dir, "seed-index");
    copyFileSync(join(repo, ".git", "index"), seed);
    writeFileSync(join(repo, "notes.txt"), "done: add\n"); // same size
    const snapshot = { objects: join(repo, ".git", "objects"), index: seed };

    // What the old code did (nothing named as modified): the edit is missing from the patch.
    expect(await gitDiffAgainstBase(repo, base, snapshot)).toBe("");
    // Named as modified by the structured diff, it is hashed and in the patch; the rest is untouched.
    const patch = await gitDiffAgainstBase(repo, base, snapshot, [], ["notes.txt"]);
    expect(patch).toContain("-todo: add\n+done: add\n");
    expect(patch).not.toContain("keep.txt");
  });
});
