/**
 * The stale-cgroup sweep must remove only what provably dead acilab processes left: pids are per
 * namespace and /sys/fs/cgroup may be shared with other containers, so an owner pid this process
 * cannot see proves nothing. Liveness comes from the owner's marker (../liveness.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ownersDir } from "../../owners/index.js";
import { needingAll, notRoot } from "../../testing/needs.js";
import { SandboxCgroup } from "./cgroup.js";
import { rmdirWithRetry } from "./cgroup-fs.js";
import { probeCgroupHost } from "./cgroup-layout.js";
import { planCgroup } from "./cgroup-plan.js";
import { staleSweep, sweepStaleCgroups } from "./cgroup-sweep.js";

const host = probeCgroupHost();
const pidsRoot = host.v1.pids;
const limits = { memoryBytes: 64 * 1024 ** 2, pids: 16 };
const children: ChildProcess[] = [];
const made: string[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const d of made.splice(0)) await rmdirWithRetry(d);
});

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

async function start(argv: string[]): Promise<ChildProcess> {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  // Each helper prints one line once it is set up.
  await new Promise((r) => child.stdout!.once("data", r));
  return child;
}

/** A cgroup under the pids hierarchy's acilab directory, optionally holding a sleeping process. */
async function cgroup(name: string, busy: boolean): Promise<{ dir: string; sleeper?: ChildProcess }> {
  const dir = posix.join(pidsRoot!, "acilab", name);
  mkdirSync(dir, { recursive: true });
  made.push(dir);
  if (!busy) return { dir };
  const sleeper = await start(["sh", "-c", "echo up; exec sleep 120"]);
  writeFileSync(posix.join(dir, "cgroup.procs"), String(sleeper.pid));
  return { dir, sleeper };
}

/** A marker socket: `listening` = its owner alive; otherwise bound and left, like a dead owner's. */
async function marker(token: string, listening: boolean): Promise<ChildProcess | undefined> {
  mkdirSync(ownersDir(), { recursive: true, mode: 0o700 });
  const path = posix.join(ownersDir(), `${token}.sock`);
  const code = `import socket, sys, time\ns = socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\n${listening ? "s.listen(8)\n" : ""}print("up", flush=True)\n${listening ? "time.sleep(120)" : ""}`;
  const child = await start(["python3", "-c", code, path]);
  return listening ? child : undefined;
}

needingAll([
  ["root", notRoot],
  ["cgroup", pidsRoot === undefined && "no cgroup v1 pids hierarchy"],
]).describe("stale cgroup sweep", () => {
  it("leaves alone a cgroup whose owner it cannot judge, busy or empty", async () => {
    const pidMax = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8"));
    // An owner pid no process here can have (as from another pid namespace), in the name today's
    // acilab gives its cgroups; and a token with no marker here (another container's /tmp).
    const foreign = await cgroup(`${pidMax + 7}-0-1`, true);
    const unknown = await cgroup("123-0-0badc0de-1", false);
    // The first cgroup this process creates starts the sweep.
    const own = SandboxCgroup.create(limits);
    await staleSweep();
    await own.cgroup?.destroy();
    expect(running(foreign.sleeper!)).toBe(true);
    expect(existsSync(foreign.dir)).toBe(true);
    expect(existsSync(unknown.dir)).toBe(true);
  });

  it("leaves alone the idle, empty cgroup of a live owner", async () => {
    await marker("4242-0-0000a11e", true);
    const idle = await cgroup("4242-0-0000a11e-3", false);
    expect(await sweepStaleCgroups(planCgroup(host, "x", limits))).toEqual([]);
    expect(existsSync(idle.dir)).toBe(true);
  });

  it("empties and removes a dead owner's cgroups, and its marker with them", async () => {
    await marker("4343-0-0000dead", false);
    const left = await cgroup("4343-0-0000dead-1", true);
    const empty = await cgroup("4343-0-0000dead-2", false);
    const removed = await sweepStaleCgroups(planCgroup(host, "x", limits));
    expect(removed.sort()).toEqual([left.dir, empty.dir].sort());
    await new Promise((r) => (running(left.sleeper!) ? left.sleeper!.once("exit", r) : r(null)));
    expect(left.sleeper!.signalCode).toBe("SIGKILL");
    expect(existsSync(posix.join(ownersDir(), "4343-0-0000dead.sock"))).toBe(false);
  });
});
