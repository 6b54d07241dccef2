/**
 * Deleting a tree an agent wrote. Node's fs.rm walks by full path: a tree deeper than PATH_MAX fails
 * with ENAMETOOLONG half-way, and each step re-resolves a path a still-running process could swap for
 * a symlink. Here the workspace helper does it with openat-style traversal (helper-source.ts: one
 * descriptor held at a time, never following a link, never crossing a mount point), in its own
 * thread and without forking this — possibly large — process. Without the helper, GNU `rm -rf
 * --one-file-system` does the same (fts walks with openat); without GNU rm, Node's rm.
 */
import { execFile, execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { promisify } from "node:util";
import { HelperCallError, sharedHelper } from "./helper.js";
import { MOUNT_ENV } from "./mounters.js";

const run = promisify(execFile);

const RM_ARGS = ["-rf", "--one-file-system", "--"];

function removalError(path: string, why: string): Error {
  return new Error(
    `cannot remove ${path}: ${why} — unmount what is mounted below it (findmnt -R ${path}) and delete it by hand`,
  );
}

/** True when `rm` said it does not know --one-file-system (busybox): use Node's rm instead. */
const notGnuRm = (e: { code?: string | number; stderr?: string }) =>
  e.code === "ENOENT" || /unrecognized option|illegal option|invalid option/.test(e.stderr ?? "");

/** Remove `path` (a directory tree or a file); nothing there is fine. */
export async function deleteTree(path: string): Promise<void> {
  const helper = sharedHelper();
  if (helper) {
    try {
      await helper.call("remove", { path });
      return;
    } catch (err) {
      // A helper that died mid-way is no reason to give up: the binaries can finish the job.
      if (!(err instanceof HelperCallError) || helper.alive) throw removalError(path, (err as Error).message);
    }
  }
  try {
    await run("rm", [...RM_ARGS, path], { env: MOUNT_ENV });
  } catch (err) {
    const e = err as { code?: string | number; stderr?: string; message: string };
    if (!notGnuRm(e)) throw removalError(path, (e.stderr ?? e.message).trim().split("\n")[0] ?? "");
    await rm(path, { recursive: true, force: true });
  }
}

/** The same, synchronously, for the exit handler (no event loop left to talk to the helper). */
export function deleteTreeSync(path: string): void {
  try {
    execFileSync("rm", [...RM_ARGS, path], { env: MOUNT_ENV, stdio: ["ignore", "ignore", "pipe"] });
  } catch (err) {
    if (notGnuRm(err as { code?: string; stderr?: string })) rmSync(path, { recursive: true, force: true });
    else throw err;
  }
}
