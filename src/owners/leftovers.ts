import { lstatSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { posix } from "node:path";
import { type OwnerState, ownerParent, ownerState, ownerToken } from "./liveness.js";

/**
 * Scratch directories a process makes in the shared temp directory (a task's base snapshot, a
 * browser's profile and Playwright's artifacts): released when the process ends however it ends short
 * of SIGKILL, and swept by the next process when it was SIGKILLed. Each carries a marker naming its
 * owner's liveness token (liveness.ts), so the sweep removes a directory only when its owner is
 * provably dead — never a live process's, in this pid namespace or another.
 */

/** The marker file inside an owned directory: {token, pid, started, ownersParent} as JSON. */
export const OWNER_FILE = ".acilab-owner";

/** What the marker says. `pid` and `started` are for a person reading it; the verdict is `token`'s. */
export interface OwnerMark {
  token: string;
  pid: number;
  /** This process's start time (ISO 8601): a recycled pid then names a different start. */
  started: string;
  /**
   * The temp directory whose liveness markers hold the token's socket (the owner's TMPDIR, which may
   * not be the sweeper's). A marker forged to point elsewhere can only get its own directory removed.
   */
  ownersParent: string;
}

const STARTED = new Date(Date.now() - process.uptime() * 1000).toISOString();
const owned = new Set<string>();
let hooked = false;

/**
 * Mark `dir` (just made by this process) as its own, for the sweep of whoever comes after a SIGKILL,
 * and remove it when the process ends. `removeAtExit: false` is for a directory something else
 * removes at exit (one with mounts inside, which must go first: the workspace's exit handler).
 */
export function markOwned(dir: string, options: { removeAtExit?: boolean } = {}): string {
  const mark: OwnerMark = {
    token: ownerToken(),
    pid: process.pid,
    started: STARTED,
    ownersParent: ownerParent(),
  };
  writeFileSync(posix.join(dir, OWNER_FILE), `${JSON.stringify(mark)}\n`, { mode: 0o600, flag: "wx" });
  if (options.removeAtExit !== false) owned.add(dir);
  hookProcessEnd();
  return dir;
}

/** Remove an owned directory now (its owner is done with it). */
export function releaseOwned(dir: string): void {
  owned.delete(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** The owner a directory's marker names, or undefined when it has no readable marker. */
export function readOwnerMark(dir: string): OwnerMark | undefined {
  try {
    const mark = JSON.parse(readFileSync(posix.join(dir, OWNER_FILE), "utf8")) as Partial<OwnerMark>;
    return typeof mark.token === "string" && typeof mark.pid === "number"
      ? {
          token: mark.token,
          pid: mark.pid,
          started: String(mark.started ?? ""),
          ownersParent: typeof mark.ownersParent === "string" ? mark.ownersParent : tmpdir(),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The state of a directory's owner: "unknown" without a marker (made this instant, or not acilab's)
 * or for a directory another user owns — both left alone.
 */
export async function dirOwnerState(dir: string): Promise<OwnerState> {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory() || st.uid !== (process.getuid?.() ?? 0)) return "unknown";
  const mark = readOwnerMark(dir);
  return mark ? ownerState(mark.token, mark.ownersParent) : "unknown";
}

export interface SweepOptions {
  /** Removes one dead owner's directory (default: rm -rf, which never follows a link out). */
  remove?: (dir: string) => void | Promise<void>;
}

/**
 * Remove every directory in `parent` whose name starts with one of `prefixes` and whose marker names
 * a dead owner. Directories without a marker, of live owners, or of owners this process cannot judge
 * stay; a removal that fails is left for the next sweep. Never throws. Returns what it removed.
 */
export async function sweepDeadOwners(
  prefixes: readonly string[],
  parent: string = tmpdir(),
  options: SweepOptions = {},
): Promise<string[]> {
  let entries: string[];
  try {
    parent = realpathSync(parent);
    entries = readdirSync(parent, { withFileTypes: true })
      .filter((e) => e.isDirectory() && prefixes.some((p) => e.name.startsWith(p)))
      .map((e) => e.name);
  } catch {
    return [];
  }
  const remove = options.remove ?? ((dir: string) => rmSync(dir, { recursive: true, force: true }));
  const removed: string[] = [];
  for (const name of entries) {
    const dir = posix.join(parent, name);
    if ((await dirOwnerState(dir)) !== "dead") continue;
    try {
      await remove(dir);
      removed.push(dir);
    } catch {
      // left for the next sweep: a leftover must never stop a new run
    }
  }
  return removed;
}

/**
 * Release owned directories at exit. A SIGINT, SIGTERM or SIGHUP that nobody else handles would end
 * the process without its "exit" handlers (these, the workspace's unmounts, the browser's process
 * groups), so it becomes an exit with the shell's code for the signal (128 + its number). A command
 * with its own handler (a run that stops cleanly on Ctrl-C) ends through "exit" by itself.
 */
function hookProcessEnd(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", releaseAllSync);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (process.listenerCount(signal) > 1) return; // someone else stops the process cleanly
      process.exit(128 + (constants.signals[signal] ?? 0));
    });
  }
}

function releaseAllSync(): void {
  for (const dir of owned) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // best effort while exiting; the next process's sweep finishes the job
    }
  }
  owned.clear();
}
