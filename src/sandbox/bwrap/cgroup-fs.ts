import { rmdirSync } from "node:fs";

/** Small file-system and signal steps shared by a sandbox's cgroup and the stale sweep. */

/** How long teardown waits for a cgroup to empty before it gives up and reports it. */
export const EMPTY_WAIT_MS = 3000;
export const POLL_MS = 2;

/** rmdir, retried while the kernel still counts exiting tasks (EBUSY); true once it is gone. */
export async function rmdirWithRetry(dir: string): Promise<boolean> {
  const deadline = Date.now() + EMPTY_WAIT_MS;
  for (;;) {
    try {
      rmdirSync(dir);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return true;
      if (code !== "EBUSY" || Date.now() > deadline) return false;
      await sleep(POLL_MS);
    }
  }
}

export function tryRmdir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // busy (other sandboxes) or gone
  }
}

export function signal(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
