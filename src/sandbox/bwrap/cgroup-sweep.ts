import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import { forgetOwner, listOwners, ownerState } from "../../owners/index.js";
import { rmdirWithRetry, signal } from "./cgroup-fs.js";
import type { CgroupPlan } from "./cgroup-plan.js";

/** A sandbox cgroup's name: its owner's liveness token (../liveness.ts), then a counter. */
const CGROUP_NAME = /^(\d+-\d+-[0-9a-f]{8})-\d+$/;

let sweep: Promise<string[]> | undefined;

/** Start the stale sweep once per process, in the background: it never touches a live owner's cgroups. */
export function sweepStaleOnce(plan: CgroupPlan): void {
  sweep ??= sweepStaleCgroups(plan).catch(() => []);
}

/** The stale sweep this process started, if it did (tests wait for it). */
export function staleSweep(): Promise<string[]> {
  return sweep ?? Promise.resolve([]);
}

/**
 * Remove the cgroups that acilab processes left when they died without closing their sandboxes: each
 * named by a token whose owner is provably gone (../liveness.ts). A cgroup of an owner this process
 * cannot judge — another container sharing /sys/fs/cgroup, an older acilab's `pid-thread-n` name —
 * is left alone, busy or empty: an empty one may be a live sandbox between two commands. Returns the
 * directories removed. sweepStaleOnce runs it once per process, from the first SandboxCgroup.create.
 */
export async function sweepStaleCgroups(plan: CgroupPlan): Promise<string[]> {
  const byOwner = new Map<string, string[]>();
  for (const base of new Set(plan.dirs.map((d) => posix.dirname(d.path)))) {
    let names: string[];
    try {
      names = readdirSync(base, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of names) {
      const token = CGROUP_NAME.exec(name)?.[1];
      if (token) byOwner.set(token, [...(byOwner.get(token) ?? []), posix.join(base, name)]);
    }
  }
  const removed: string[] = [];
  for (const token of new Set([...byOwner.keys(), ...listOwners()])) {
    if ((await ownerState(token)) !== "dead") continue;
    let all = true;
    for (const dir of byOwner.get(token) ?? []) {
      try {
        for (const pid of readFileSync(posix.join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean))
          signal(Number(pid));
      } catch {
        // unreadable: rmdir says whether it is still in use
      }
      if (await rmdirWithRetry(dir)) removed.push(dir);
      else all = false;
    }
    // The marker goes with the last of what it named, so a later sweep can still finish the job.
    if (all) forgetOwner(token);
  }
  return removed;
}
