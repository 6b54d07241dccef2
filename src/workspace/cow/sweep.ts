import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LockAttempt, takeLock } from "./locks.js";
import { mountsUnder, readMountInfo } from "./mountinfo.js";
import {
  EXTERNAL_DIRS_FILE,
  EXTERNAL_MOUNTS_FILE,
  HOME_PREFIX,
  OWNER_LOCK_FILE,
  removeTree,
  unmountStale,
} from "./mounts.js";

const HOME_NAME = new RegExp(`^${HOME_PREFIX}(\\d+)-`);

/**
 * A directory without a lock file is one from before owner locks, or one made this instant (the lock
 * is taken right after mkdtemp, microseconds later): it is judged by its pid only once it is older
 * than this.
 */
export const UNLOCKED_GRACE_MS = 60_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The rule for a directory whose lock cannot be consulted: its pid, and its age. */
function unlockedAndStale(dir: string, pid: number): boolean {
  if (pid === process.pid || isAlive(pid)) return false;
  try {
    return Date.now() - statSync(dir).mtimeMs > UNLOCKED_GRACE_MS;
  } catch {
    return false;
  }
}

/**
 * Clear what killed processes left in `parent`: each of its `acilab-cow-…` directories whose owner is
 * gone — its owner lock can be taken, so no process anywhere (any pid namespace) holds it — loses its
 * mounts (those inside it, then those it recorded outside it) and is removed, however deep its tree,
 * with the directories outside it it recorded as its own (a snapshot's clone).
 * A directory that cannot be removed is left for the next sweep; the sweep itself never fails. Other
 * directories, and live owners' ones, are never touched. Returns the mount points it detached.
 */
export async function sweepStaleWorkspaces(parent: string = tmpdir()): Promise<string[]> {
  let names: string[];
  try {
    parent = realpathSync(parent);
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const swept: string[] = [];
  for (const name of names) {
    const match = HOME_NAME.exec(name);
    if (!match) continue;
    const dir = join(parent, name);
    let attempt: LockAttempt;
    try {
      attempt = await takeLock(join(dir, OWNER_LOCK_FILE), false);
    } catch {
      continue; // not a lock we can judge (a FIFO, a directory): leave it alone
    }
    if (attempt.state === "busy") continue;
    if (attempt.state !== "held" && !unlockedAndStale(dir, Number(match[1]))) continue;
    try {
      await clearHome(dir, swept);
    } catch {
      // left for the next sweep: a stale directory must never stop a new run
    } finally {
      if (attempt.state === "held") await attempt.lock.release();
    }
  }
  return swept;
}

async function clearHome(dir: string, swept: string[]): Promise<void> {
  for (const m of mountsUnder(dir)) if (await unmountStale(m.target)) swept.push(m.target);
  const mounted = new Set(readMountInfo().map((m) => m.target));
  for (const target of readLines(join(dir, EXTERNAL_MOUNTS_FILE)))
    if (mounted.has(target) && (await unmountStale(target))) swept.push(target);
  // Its own directories elsewhere (a snapshot's clone) go first: the list goes with the directory.
  for (const own of readLines(join(dir, EXTERNAL_DIRS_FILE)))
    if (mountsUnder(own).length === 0) await removeTree(own);
  if (mountsUnder(dir).length === 0) await removeTree(dir);
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "");
  } catch {
    return [];
  }
}
