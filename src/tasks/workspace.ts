import { join } from "node:path";
import { adoptTree, sandboxIdentity } from "../sandbox/index.js";
import { type Checkout, snapshotAtCommit } from "../workspace/index.js";
import { taskRepository } from "./instance.js";
import type { Task } from "./task.js";

/**
 * A private copy-on-write checkout of `repoPath` at `commit`: the repository is prepared once per
 * process as a read-only snapshot and each call gets its own overlay layer over it (milliseconds),
 * or a full copy — with `checkout.warning` saying so — where overlayfs is unavailable. When acilab
 * runs as root the snapshot's files belong to the sandbox user, so sandboxed commands can edit them.
 */
export async function checkoutAt(repoPath: string, commit: string): Promise<TaskCheckout> {
  const id = sandboxIdentity();
  const snapshot = await snapshotAtCommit(
    repoPath,
    commit,
    id.switched ? { owner: { uid: id.uid, gid: id.gid, adopt: adoptTree } } : {},
  );
  return { checkout: await snapshot.checkout(), gitDir: join(snapshot.dir, ".git") };
}

/** A checkout and the snapshot's repository, which host-side git reads instead of the checkout's .git. */
export interface TaskCheckout {
  checkout: Checkout;
  gitDir: string;
}

/** A fresh checkout of the task's repository at its base state. Hidden tests are not in it. */
export async function checkoutTask(task: Task): Promise<TaskCheckout> {
  const repo = await taskRepository(task);
  return checkoutAt(repo.repoPath, repo.baseCommit);
}
