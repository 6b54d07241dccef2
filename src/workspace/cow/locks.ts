/**
 * Ownership of a workspace directory that survives pid namespaces: the owner holds an flock(2) on a
 * file in it for its whole life (the lock is the workspace helper's, and the helper exits with us), so
 * whoever can take the lock knows the owner is gone. A pid says nothing across containers sharing
 * /tmp: a pid another namespace's process has is "not running" here, or is some unrelated process.
 */
import { ERRNO, HelperCallError, sharedHelper } from "./helper.js";

export interface HeldLock {
  release(): Promise<void>;
}

export type LockAttempt =
  | { state: "held"; lock: HeldLock }
  /** Someone holds it: the owner is alive (or another sweeper is clearing it right now). */
  | { state: "busy" }
  /** There is no such file (a directory from before locks, or one being created this instant). */
  | { state: "missing" }
  /** No workspace helper here (no system python3): no lock can be held or tested. */
  | { state: "unsupported" };

/** Take `file`'s lock without waiting; `create` makes the file (mode 0600) if it is missing. */
export async function takeLock(file: string, create: boolean): Promise<LockAttempt> {
  const helper = sharedHelper();
  if (!helper) return { state: "unsupported" };
  try {
    const reply = await helper.call("lock", { path: file, create });
    const id = reply.lock;
    return {
      state: "held",
      lock: {
        release: () =>
          helper.call("unlock", { lock: id }).then(
            () => undefined,
            () => undefined,
          ),
      },
    };
  } catch (err) {
    if (err instanceof HelperCallError && err.errno === ERRNO.EAGAIN) return { state: "busy" };
    if (err instanceof HelperCallError && err.errno === ERRNO.ENOENT) return { state: "missing" };
    if (err instanceof HelperCallError && !helper.alive) return { state: "unsupported" };
    throw new Error(`cannot lock ${file}: ${(err as Error).message}`);
  }
}
