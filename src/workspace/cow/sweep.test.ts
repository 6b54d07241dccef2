import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { needing } from "../../testing/needs.js";
import { EVENTUALLY } from "../../testing/time.js";
import { commitAll } from "../git.js";
import { readMountInfo } from "./mountinfo.js";
import { deleteTree } from "./remove.js";
import { prepareSnapshot } from "./snapshot.js";
import { sweepStaleWorkspaces, UNLOCKED_GRACE_MS } from "./sweep.js";
import {
  makeDeepTree,
  makeScratch,
  makeSourceTree,
  mountedUnder,
  overlayWorksHere,
  runChildScript,
} from "./testing.js";

const canOverlay = await overlayWorksHere();
let scratch: string;

beforeAll(() => {
  scratch = makeScratch("sweep");
});

afterAll(() => {
  expect(readMountInfo().filter((m) => m.target.startsWith(scratch))).toEqual([]);
  rmSync(scratch, { recursive: true, force: true });
});

/** A pid no host process has now, from the top of the range down (pids there are handed out last). */
function freeHostPid(): number {
  const max = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8"));
  for (let pid = max - 1; pid > 300; pid--) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ESRCH") return pid;
    }
  }
  throw new Error("no free pid found for the pid-namespace test");
}

const homes = (dir: string) => readdirSync(dir).filter((n) => n.startsWith("acilab-cow-"));

/** The dead owner's lock goes with its workspace helper, a moment after the owner is reaped. */
async function sweepUntilGone(parent: string): Promise<void> {
  await vi.waitFor(async () => {
    await sweepStaleWorkspaces(parent);
    expect(homes(parent)).toEqual([]);
  }, EVENTUALLY);
}

needing("overlayfs", !canOverlay && "overlayfs cannot be mounted here").describe(
  "the stale-workspace sweep",
  () => {
    it("removes a SIGKILLed run's trees deeper than PATH_MAX, and the next snapshot works", async () => {
      const dir = join(scratch, "deep");
      mkdirSync(dir);
      const child = runChildScript(
        dir,
        `import { prepareSnapshot } from "HERE/index.ts";
import { makeDeepTree } from "HERE/testing.ts";
const [source, scratch] = process.argv.slice(2);
const overlays = await prepareSnapshot(source, { scratchDir: scratch });
const copies = await prepareSnapshot(source, { scratchDir: scratch, mode: "copy" });
for (const c of [await overlays.checkout(), await overlays.checkout({ upper: "tmpfs" }), await copies.checkout()])
  console.log(c.kind, makeDeepTree(c.root, "deep", 120));
process.kill(process.pid, "SIGKILL");
`,
        [makeSourceTree(dir), dir],
      );
      expect(child.signal).toBe("SIGKILL");
      expect(child.lines).toHaveLength(3);
      for (const line of child.lines) expect(Number(line.split(" ")[1])).toBeGreaterThan(4096);
      expect(homes(dir)).toHaveLength(2);

      // The next run on this machine: its snapshot's sweep must not fail on what the dead one left.
      const next = await prepareSnapshot(makeSourceTree(dir), { scratchDir: dir });
      const c = await next.checkout();
      writeFileSync(join(c.root, "ok.txt"), "fine\n");
      await next.dispose();
      await sweepUntilGone(dir);
      expect(mountedUnder(dir)).toEqual([]);
    });

    it("removes the clone a killed process's shared snapshot was made from", async () => {
      const dir = join(scratch, "clone");
      mkdirSync(dir);
      const repo = makeSourceTree(dir);
      const base = await commitAll(repo, "base");
      const child = runChildScript(
        dir,
        `import { snapshotAtCommit } from "HERE/../at-commit.ts";
const [repo, base, scratch] = process.argv.slice(2);
const s = await snapshotAtCommit(repo, base, { scratchDir: scratch });
await s.checkout();
console.log(s.dir);
process.kill(process.pid, "SIGKILL");
`,
        [repo, base, dir],
      );
      const [clone = ""] = child.lines;
      expect(clone).toMatch(/acilab-base-/);
      expect(existsSync(join(clone, ".git"))).toBe(true);
      await sweepUntilGone(dir);
      expect(existsSync(clone)).toBe(false);
      expect(mountedUnder(dir)).toEqual([]);
    });

    it("removes a lockless directory of a dead pid once it is old, however deep; a young one is left", async () => {
      const dir = join(scratch, "legacy");
      mkdirSync(dir);
      // pid_max is at most 2^22: this pid runs nowhere.
      const old = join(dir, "acilab-cow-4194305-legacy");
      const young = join(dir, "acilab-cow-4194305-young");
      for (const home of [old, young]) {
        mkdirSync(home);
        makeDeepTree(home, "c1", 100);
      }
      const past = new Date(Date.now() - 2 * UNLOCKED_GRACE_MS);
      utimesSync(old, past, past);
      await sweepStaleWorkspaces(dir);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(young)).toBe(true);
      await deleteTree(young);
      expect(existsSync(young)).toBe(false);
    });

    it("never removes a live owner's workspace, even one whose pid it cannot see (another pid namespace)", async () => {
      const dir = join(scratch, "namespaces");
      mkdirSync(dir);
      const here = dirname(fileURLToPath(import.meta.url));
      const tsxDir = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
      const script = join(dir, "owner.mts");
      writeFileSync(
        script,
        `import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { prepareSnapshot } from ${JSON.stringify(join(here, "index.ts"))};
const [source, scratch] = process.argv.slice(2);
const s = await prepareSnapshot(source, { scratchDir: scratch });
const c = await s.checkout();
writeFileSync(c.root + "/work.txt", "in progress\\n");
console.log(JSON.stringify({ pid: process.pid, root: c.root }));
for await (const _ of createInterface({ input: process.stdin })) break;
console.log(readFileSync(c.root + "/work.txt", "utf8").trim());
await s.dispose();
`,
      );
      // A pid namespace of its own and a mount namespace of its own, like another container sharing
      // /tmp; its node gets a pid there that is no process here. Chosen now, not fixed: on a busy
      // machine any fixed number may already be a host process.
      const innerPid = freeHostPid();
      const node = [process.execPath, "--import", join(tsxDir, "dist", "loader.mjs"), script];
      const inner = `echo ${innerPid - 1} > /proc/sys/kernel/ns_last_pid; "$@"`; // the next fork gets innerPid
      const owner = spawn(
        "unshare",
        ["--pid", "--fork", "--mount", "sh", "-c", inner, "sh", ...node, makeSourceTree(dir), dir],
        { stdio: ["pipe", "pipe", "inherit"] },
      );
      const closed = new Promise((resolve) => owner.on("close", resolve));
      const lines = createInterface({ input: owner.stdout })[Symbol.asyncIterator]();
      const first = await lines.next();
      const { pid } = JSON.parse(String(first.value)) as { pid: number };
      expect(pid).toBe(innerPid);
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
      const [home] = homes(dir);
      expect(home).toMatch(new RegExp(`^acilab-cow-${innerPid}-`));

      expect(await sweepStaleWorkspaces(dir)).toEqual([]);
      expect(homes(dir)).toEqual([home]);
      owner.stdin.end("go on\n");
      expect(String((await lines.next()).value)).toBe("in progress");
      await closed;
      // Its own dispose removed it; the mount helper that unmounts may finish a moment after the owner.
      await vi.waitFor(() => expect(homes(dir)).toEqual([]), EVENTUALLY);
    });
  },
);
