/**
 * What an `acilab run` leaves in the temp directory: nothing of its own once it ends (normally or on a
 * signal), and what a SIGKILLed one left is swept by the next start — never a live process's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { spawnCliFromSource } from "../../src/cli/testing.js";
import { tsxLoaderPath } from "../../src/tasks/index.js";
import { BASE_PREFIX, commitAll, releaseSnapshots, snapshotAtCommit } from "../../src/workspace/index.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "acilab-leftovers-e2e-")));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(async () => {
  await releaseSnapshots();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Shared by every acilab process on the machine, by design: the sandbox's /etc (content-addressed),
 * the liveness markers' directory (empty once its processes ended), and tsx's compile cache.
 */
const SHARED = /^(acilab-etc-\d+-[0-9a-f]+|acilab-owners-\d+|tsx-\d+)$/;

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((n) => !SHARED.test(n));
}

function sockets(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.startsWith("acilab-owners-"))
    .flatMap((n) => readdirSync(join(dir, n)).filter((f) => f.endsWith(".sock")));
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** A node process from source (tsx) with TMPDIR=`tmp`, running `code` with argv after it. */
function startChild(
  tmp: string,
  code: string,
  args: string[],
): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(
    process.execPath,
    ["--import", tsxLoaderPath(), "--input-type=module", "-e", code, ...args],
    {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return { child, lines };
}

const SNAPSHOT_AND_WAIT = `
const { snapshotAtCommit } = await import(${JSON.stringify(new URL("../../src/workspace/index.ts", import.meta.url).pathname)});
const [repo, commit, how] = process.argv.slice(1);
const s = await snapshotAtCommit(repo, commit);
await s.checkout();
console.log(s.dir);
if (how === "kill") process.kill(process.pid, "SIGKILL");
setInterval(() => undefined, 1000);
`;

async function makeRepo(): Promise<{ repo: string; commit: string }> {
  const repo = mkdtempSync(join(scratch, "repo-"));
  mkdirSync(join(repo, "src"));
  writeFileSync(join(repo, "src", "app.py"), "print('hi')\n");
  return { repo, commit: await commitAll(repo, "base") };
}

describe("leftovers of acilab processes", () => {
  it("a real `acilab run --task median-even` leaves nothing of its own in its TMPDIR", async () => {
    const tmp = mkdtempSync(join(scratch, "run-"));
    const out = mkdtempSync(join(scratch, "out-"));
    const child = spawnCliFromSource(
      ["run", "--task", "median-even", "--out", out],
      ["ignore", "ignore", "pipe"],
      {
        ...process.env,
        TMPDIR: tmp,
      },
    );
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    expect((await exited(child)).code, stderr).toBe(0);
    expect(existsSync(join(out, "result.json"))).toBe(true);
    expect(leftovers(tmp)).toEqual([]);
    expect(sockets(tmp)).toEqual([]);
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "a process ended by %s releases its base snapshot",
    async (signal) => {
      const tmp = mkdtempSync(join(scratch, "signal-"));
      const { repo, commit } = await makeRepo();
      const { child, lines } = startChild(tmp, SNAPSHOT_AND_WAIT, [repo, commit, "wait"]);
      const dir = String((await lines.next()).value);
      expect(dir).toContain(BASE_PREFIX);
      expect(existsSync(dir)).toBe(true);
      const end = exited(child);
      child.kill(signal);
      expect(await end).toMatchObject({ code: signal === "SIGTERM" ? 143 : 130 });
      expect(leftovers(tmp)).toEqual([]);
    },
  );

  it("the next start sweeps a SIGKILLed process's base snapshot and leaves a live one's", async () => {
    const tmp = mkdtempSync(join(scratch, "kill-"));
    const { repo, commit } = await makeRepo();
    // The live one first: each start sweeps, so a process started after the kill would sweep it itself.
    const live = startChild(tmp, SNAPSHOT_AND_WAIT, [repo, commit, "wait"]);
    const liveDir = dirname(String((await live.lines.next()).value));
    const killed = startChild(tmp, SNAPSHOT_AND_WAIT, [repo, commit, "kill"]);
    const killedDir = dirname(String((await killed.lines.next()).value));
    expect(await exited(killed.child)).toMatchObject({ signal: "SIGKILL" });
    expect([existsSync(killedDir), existsSync(liveDir)]).toEqual([true, true]);

    // The next start in the same temp directory: its own snapshot's sweep.
    const next = await snapshotAtCommit(repo, commit, { scratchDir: tmp });
    expect(existsSync(killedDir)).toBe(false);
    expect(existsSync(liveDir)).toBe(true);
    const bases = readdirSync(tmp).filter((n) => n.startsWith(BASE_PREFIX));
    expect(bases).toHaveLength(2); // the live process's and ours
    await releaseSnapshots();
    expect(existsSync(dirname(next.dir))).toBe(false);
    const end = exited(live.child);
    live.child.kill("SIGTERM");
    await end;
    expect(existsSync(liveDir)).toBe(false);
  });
});
