import { posix } from "node:path";
import type { CgroupHost } from "./cgroup-layout.js";

/**
 * One cgroup per sandbox: memory, pids and CPU limits, and a way to kill everything in it at once — the
 * only kill that reaches a `setsid` escapee or a grandchild that re-parented itself. cgroup v2 when
 * the unified hierarchy can hand out memory and pids (and cpu where it can); otherwise v1 (memory,
 * pids and cpu hierarchies), with the v1 freezer or (without one) the unified hierarchy, even without
 * controllers, for the kill.
 *
 * Each sandbox's directories are created below this process's own cgroup in each hierarchy, never at
 * the root: a sandbox stays inside whatever limits the caller (a systemd unit, a CI job) runs under.
 */

/** Directory under the own cgroup that holds every sandbox's cgroup (one per sandbox below it). */
export const CGROUP_PARENT = "acilab";

export interface CgroupLimits {
  memoryBytes: number;
  pids: number;
  /** CPUs' worth of time per scheduling period (1.5 = one and a half cores); absent = not limited. */
  cpus?: number;
}

/**
 * The CFS period the CPU quota is counted in: the kernel's default, 100 ms. A shorter one costs the
 * scheduler more work per second; a longer one lets a burst run that long before it is throttled.
 */
export const CPU_PERIOD_US = 100_000;
/** The kernel refuses a quota below 1 ms per period. */
const MIN_CPU_QUOTA_US = 1_000;

/** The limits a cgroup can hold, and which file of the plan carries each (for `acilab doctor`). */
export type CgroupLimit = "memory" | "pids" | "cpu";

export interface Write {
  file: string;
  value: string;
  /** Skip when the file does not exist (swap accounting is a kernel option). */
  optional?: boolean;
}

export interface CgroupPlan {
  mode: "v2" | "v1" | "none";
  /** Per-sandbox directories, each with its limit writes, in order. */
  dirs: Array<{ path: string; writes: Write[] }>;
  /** Parent directories to create first, with writes (v2: delegate the controllers to children). */
  parents: Array<{ path: string; writes: Write[] }>;
  /** How everything inside is killed at once. */
  killer: "cgroup.kill" | "freezer" | "signals";
  /** Which planned directory carries the kill (cgroup.kill or freezer.state). */
  killDir?: string;
  /** The limits this plan sets, each with the files that carry it (e.g. "v1 memory.limit_in_bytes"). */
  enforced: Partial<Record<CgroupLimit, string>>;
  warnings: string[];
}

/** The quota for `cpus` CPUs per CPU_PERIOD_US, in microseconds. */
export function cpuQuotaUs(cpus: number): number {
  return Math.max(MIN_CPU_QUOTA_US, Math.round(cpus * CPU_PERIOD_US));
}

export const has = (list: string[], ...want: string[]) => want.every((w) => list.includes(w));

/** Decide directories, limit files and the kill method for one sandbox. Pure over `host`. */
export function planCgroup(host: CgroupHost, id: string, limits: CgroupLimits): CgroupPlan {
  const memory = String(limits.memoryBytes);
  const pids = String(limits.pids);
  const v2 = host.v2;
  const noCpu = (why: string) =>
    `${why}: CPU is not limited per sandbox (each process still stops at RLIMIT_CPU, and the command at its timeout)`;
  if (v2 && has(v2.controllers, "memory", "pids")) {
    // Children of our own cgroup get memory/pids only if our subtree_control lists them, and that can
    // be set only where no process lives (or at the root). Otherwise a sibling under our parent has them.
    const isRoot = v2.dir === v2.mountPoint;
    const nested = isRoot || has(v2.subtreeControl, "memory", "pids");
    const parentDir = nested ? v2.dir : posix.dirname(v2.dir);
    const base = posix.join(parentDir, CGROUP_PARENT);
    // cpu reaches our directories only if the cgroup they hang from hands it down: the root can be
    // told to (we do), our own cgroup already does or not, our parent does if we have it.
    const cpuHere = isRoot || !nested ? v2.controllers.includes("cpu") : v2.subtreeControl.includes("cpu");
    const cpu = limits.cpus !== undefined && cpuHere;
    const controllers = cpu ? "+memory +pids +cpu" : "+memory +pids";
    const parents: CgroupPlan["parents"] = [];
    if (isRoot && !has(v2.subtreeControl, "memory", "pids", ...(cpu ? ["cpu"] : [])))
      parents.push({ path: v2.dir, writes: [{ file: "cgroup.subtree_control", value: controllers }] });
    parents.push({ path: base, writes: [{ file: "cgroup.subtree_control", value: controllers }] });
    const dir = posix.join(base, id);
    const writes: Write[] = [
      { file: "memory.max", value: memory },
      { file: "memory.swap.max", value: "0", optional: true },
      { file: "pids.max", value: pids },
    ];
    const enforced: CgroupPlan["enforced"] = { memory: "v2 memory.max", pids: "v2 pids.max" };
    const warnings: string[] = [];
    if (cpu && limits.cpus !== undefined) {
      writes.push({ file: "cpu.max", value: `${cpuQuotaUs(limits.cpus)} ${CPU_PERIOD_US}` });
      enforced.cpu = "v2 cpu.max";
    } else if (limits.cpus !== undefined)
      warnings.push(noCpu(`the cgroup v2 cpu controller is not delegated to ${parentDir}`));
    return {
      mode: "v2",
      parents,
      dirs: [{ path: dir, writes }],
      killer: "cgroup.kill",
      killDir: dir,
      enforced,
      warnings,
    };
  }
  const warnings: string[] = [];
  const dirs: CgroupPlan["dirs"] = [];
  const enforced: CgroupPlan["enforced"] = {};
  if (host.v1.memory) {
    dirs.push({
      path: posix.join(host.v1.memory, CGROUP_PARENT, id),
      writes: [
        { file: "memory.limit_in_bytes", value: memory },
        { file: "memory.memsw.limit_in_bytes", value: memory, optional: true },
      ],
    });
    enforced.memory = "v1 memory.limit_in_bytes";
  } else
    warnings.push("no memory cgroup (neither v2 with the memory controller nor v1): memory is not limited");
  if (host.v1.pids) {
    dirs.push({
      path: posix.join(host.v1.pids, CGROUP_PARENT, id),
      writes: [{ file: "pids.max", value: pids }],
    });
    enforced.pids = "v1 pids.max";
  } else
    warnings.push(
      "no pids cgroup (neither v2 with the pids controller nor v1): processes are limited only by RLIMIT_NPROC",
    );
  if (limits.cpus !== undefined && host.v1.cpu) {
    dirs.push({
      path: posix.join(host.v1.cpu, CGROUP_PARENT, id),
      // The period first: the quota is checked against it.
      writes: [
        { file: "cpu.cfs_period_us", value: String(CPU_PERIOD_US) },
        { file: "cpu.cfs_quota_us", value: String(cpuQuotaUs(limits.cpus)) },
      ],
    });
    enforced.cpu = "v1 cpu.cfs_quota_us / cpu.cfs_period_us";
  } else if (limits.cpus !== undefined)
    warnings.push(noCpu("no cpu cgroup (neither v2 with the cpu controller nor v1)"));
  if (dirs.length === 0)
    return { mode: "none", dirs, parents: [], killer: "signals", enforced: {}, warnings };
  let killer: CgroupPlan["killer"] = "signals";
  let killDir: string | undefined;
  // The v1 freezer first: a process joins a v1 cgroup by writing 0 to its `tasks` file, which the kernel
  // does without the global threadgroup lock; joining the unified hierarchy (cgroup.procs) takes that
  // lock, and its first taker after a quiet spell waits out an RCU grace period — ~8 ms per sandbox here.
  if (host.v1.freezer) {
    killDir = posix.join(host.v1.freezer, CGROUP_PARENT, id);
    dirs.push({ path: killDir, writes: [] });
    killer = "freezer";
  } else if (v2) {
    // The unified hierarchy tracks processes even with no controllers, and has cgroup.kill (Linux 5.14+).
    killDir = posix.join(v2.dir, CGROUP_PARENT, id);
    dirs.push({ path: killDir, writes: [] });
    killer = "cgroup.kill";
  }
  const plan: CgroupPlan = { mode: "v1", dirs, parents: [], killer, enforced, warnings };
  if (killDir !== undefined) plan.killDir = killDir;
  return plan;
}
