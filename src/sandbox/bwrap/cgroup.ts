import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import { ownerToken } from "../../owners/index.js";
import { EMPTY_WAIT_MS, POLL_MS, rmdirWithRetry, signal, sleep, tryRmdir } from "./cgroup-fs.js";
import { type CgroupHost, probeCgroupHost } from "./cgroup-layout.js";
import { type CgroupLimits, type CgroupPlan, has, planCgroup, type Write } from "./cgroup-plan.js";
import { sweepStaleOnce } from "./cgroup-sweep.js";
import { phase } from "./phases.js";

/**
 * A sandbox's cgroup at run time: created from its plan (cgroup-plan.ts), joined by the wrapper
 * before bwrap starts, emptied with one kill, removed on close. Creation never throws for a host that
 * cannot do it; it says why instead.
 */

let counter = 0;
const live = new Set<string>();

/** CPU accounting of a sandbox's cgroup: how often the CPU limit held it back. */
export interface CpuStat {
  /** Scheduling periods in which it ran. */
  periods: number;
  /** Periods it used up its quota in and was stopped until the next one. */
  throttled: number;
  /** Time spent stopped that way, µs. */
  throttledUs: number;
}

/** A created per-sandbox cgroup. */
export class SandboxCgroup {
  private constructor(
    readonly plan: CgroupPlan,
    private killer: CgroupPlan["killer"],
  ) {}

  /**
   * Create the sandbox's cgroup. Never throws for a host that cannot do it: the sandbox then runs
   * without one and `warnings` says what is missing and why, for the result and for `acilab doctor`.
   */
  static create(
    limits: CgroupLimits,
    host: CgroupHost = probeCgroupHost(),
  ): { cgroup?: SandboxCgroup; warnings: string[] } {
    // The owner's token first: the stale sweep of another process asks it whether we are alive.
    const id = `${ownerToken()}-${++counter}`;
    const plan = planCgroup(host, id, limits);
    if (plan.mode === "none") return { warnings: plan.warnings };
    // In the background: it only removes what provably-dead owners left, never anything of ours.
    sweepStaleOnce(plan);
    let failure: unknown;
    // Twice: another process may remove the shared parent between our mkdir of it and of our child.
    for (let attempt = 0; attempt < 2; attempt++) {
      failure = createDirs(plan);
      if (failure === undefined || (failure as NodeJS.ErrnoException).code !== "ENOENT") break;
    }
    if (failure !== undefined) {
      const why = (failure as NodeJS.ErrnoException).message;
      return {
        warnings: [
          ...plan.warnings,
          `cannot create the sandbox's ${plan.mode} cgroup (${why}): memory and process count are not limited and teardown relies on the pid namespace — run acilab as root or in a cgroup delegated to it (systemd-run --scope -p Delegate=yes)`,
        ],
      };
    }
    let killer = plan.killer;
    if (killer === "cgroup.kill" && plan.killDir && !existsSync(posix.join(plan.killDir, "cgroup.kill")))
      killer = "signals";
    for (const d of plan.dirs) live.add(d.path);
    phase("cgroup created");
    return { cgroup: new SandboxCgroup(plan, killer), warnings: plan.warnings };
  }

  /** Files a process writes its pid into to join (the same process must join every hierarchy). */
  get procsFiles(): string[] {
    return this.plan.dirs.map((d) => posix.join(d.path, "cgroup.procs"));
  }

  /**
   * Files a starting process writes `0` into to join every hierarchy itself (the sandbox wrapper does,
   * before it becomes bwrap, so bwrap and all it forks are born inside). v1: `tasks`, where moving
   * oneself skips the global threadgroup lock and so the RCU grace period its first taker waits for
   * (~8 ms here, measured); the unified hierarchy has only cgroup.procs, which takes it.
   */
  get joinFiles(): string[] {
    const unified = (path: string) =>
      this.plan.mode === "v2" || (this.plan.killer === "cgroup.kill" && path === this.plan.killDir);
    return this.plan.dirs.map((d) => posix.join(d.path, unified(d.path) ? "cgroup.procs" : "tasks"));
  }

  /** Put `pid` into every hierarchy of this cgroup; its children inherit all of them. */
  place(pid: number): void {
    for (const file of this.procsFiles) writeFileSync(file, String(pid));
  }

  /** Pids in the cgroup now (host pid namespace). */
  pids(): number[] {
    const first = this.plan.dirs[0];
    if (!first) return [];
    try {
      return readFileSync(posix.join(first.path, "cgroup.procs"), "utf8")
        .split("\n")
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  }

  /** Processes the memory limit killed so far (0 when the kernel does not count them). */
  oomKills(): number {
    return this.counter(this.plan.mode === "v2" ? "memory.events" : "memory.oom_control", "oom_kill");
  }

  /** Forks the pids limit refused so far. */
  forksRefused(): number {
    return this.counter("pids.events", "max");
  }

  /** How the CPU limit has held the sandbox back so far; undefined when the plan sets none. */
  cpuStat(): CpuStat | undefined {
    const dir = this.plan.dirs.find((d) => d.writes.some((w) => w.file.startsWith("cpu.")));
    if (!dir) return undefined;
    let text: string;
    try {
      text = readFileSync(posix.join(dir.path, "cpu.stat"), "utf8");
    } catch {
      return undefined;
    }
    const field = (key: string) => Number(new RegExp(`^${key} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
    const throttledUs =
      this.plan.mode === "v2" ? field("throttled_usec") : Math.round(field("throttled_time") / 1000);
    return { periods: field("nr_periods"), throttled: field("nr_throttled"), throttledUs };
  }

  private counter(file: string, key: string): number {
    for (const d of this.plan.dirs) {
      try {
        const text = readFileSync(posix.join(d.path, file), "utf8");
        const m = new RegExp(`^${key} (\\d+)$`, "m").exec(text);
        if (m) return Number(m[1]);
      } catch {
        // not this hierarchy
      }
    }
    return 0;
  }

  /**
   * SIGKILL everything in the cgroup and wait until it is empty. True when it emptied. `until`, checked
   * before every kill, stops the sweep early (returning false) — an exec that started meanwhile is in
   * the same cgroup and must not be hit.
   */
  async killAll(until: () => boolean = () => true): Promise<boolean> {
    if (this.pids().length === 0) return true;
    if (!until()) return false;
    const dir = this.plan.killDir;
    try {
      if (this.killer === "cgroup.kill" && dir) writeFileSync(posix.join(dir, "cgroup.kill"), "1");
      else if (this.killer === "freezer" && dir) await freezeAndKill(dir, () => this.pids(), until);
    } catch {
      // fall through to signals
    }
    return waitEmpty(() => this.pids(), until);
  }

  /** Kill what is left and remove the directories. */
  async destroy(): Promise<string[]> {
    const warnings: string[] = [];
    if (!(await this.killAll()))
      warnings.push(
        `cgroup ${this.plan.dirs[0]?.path} still has processes ${this.pids().join(" ")} after SIGKILL`,
      );
    for (const d of [...this.plan.dirs].reverse()) {
      live.delete(d.path);
      if (!(await rmdirWithRetry(d.path))) warnings.push(`could not remove cgroup ${d.path}`);
      // The shared parent goes when its last sandbox does (another process's sandboxes keep it busy).
      if (![...live].some((p) => posix.dirname(p) === posix.dirname(d.path))) tryRmdir(posix.dirname(d.path));
    }
    return warnings;
  }
}

/** Make the parents and the sandbox's directories; on failure remove what was made and return the error. */
function createDirs(plan: CgroupPlan): unknown {
  const made: string[] = [];
  try {
    for (const p of plan.parents) {
      mkdirSync(p.path, { recursive: true });
      delegate(p.path, p.writes);
    }
    for (const d of plan.dirs) {
      mkdirSync(posix.dirname(d.path), { recursive: true });
      mkdirSync(d.path); // not recursive: an existing directory would be another sandbox's
      made.push(d.path);
      applyWrites(d.path, d.writes);
    }
    return undefined;
  } catch (err) {
    for (const dir of made.reverse()) tryRmdir(dir);
    return err;
  }
}

function applyWrites(dir: string, writes: Write[]): void {
  for (const w of writes) {
    const file = posix.join(dir, w.file);
    if (w.optional && !existsSync(file)) continue;
    writeFileSync(file, w.value);
  }
}

/**
 * Hand controllers (memory, pids, cpu) to a parent's children. Refused (EBUSY) when the parent holds
 * processes; that is fine if it already delegates them — another sandbox, or the host, set it up.
 */
function delegate(dir: string, writes: Write[]): void {
  try {
    applyWrites(dir, writes);
  } catch (err) {
    const wanted = writes.flatMap((w) => w.value.split(/\s+/).map((c) => c.replace(/^\+/, "")));
    const now = readFileSync(posix.join(dir, "cgroup.subtree_control"), "utf8").split(/\s+/);
    if (!has(now, ...wanted.filter(Boolean))) throw err;
  }
}

async function freezeAndKill(dir: string, pids: () => number[], until: () => boolean): Promise<void> {
  const state = posix.join(dir, "freezer.state");
  writeFileSync(state, "FROZEN");
  const deadline = Date.now() + 1000;
  while (readFileSync(state, "utf8").trim() !== "FROZEN" && Date.now() < deadline) await sleep(POLL_MS);
  if (until()) for (const pid of pids()) signal(pid);
  writeFileSync(state, "THAWED"); // frozen tasks die only once they run again
}

/** Poll until the cgroup is empty, SIGKILLing whatever is there each round while `until` holds. */
async function waitEmpty(pids: () => number[], until: () => boolean): Promise<boolean> {
  const deadline = Date.now() + EMPTY_WAIT_MS;
  for (;;) {
    if (!until()) return false;
    const left = pids();
    if (left.length === 0) return true;
    if (Date.now() > deadline) return false;
    for (const pid of left) signal(pid);
    await sleep(POLL_MS);
  }
}
