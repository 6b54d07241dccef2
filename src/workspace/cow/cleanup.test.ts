import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { needing } from "../../testing/needs.js";
import { EVENTUALLY } from "../../testing/time.js";
import { readMountInfo } from "./mountinfo.js";
import { liveMounts } from "./mounts.js";
import { prepareSnapshot } from "./snapshot.js";
import { sweepStaleWorkspaces } from "./sweep.js";
import { makeScratch, makeSourceTree, mountedUnder, overlayWorksHere } from "./testing.js";

const canOverlay = await overlayWorksHere();
let scratch: string;
/** Mounts other files in this worker process still hold (the fast tier shares one process per worker). */
let before: Set<string>;

beforeAll(() => {
  scratch = makeScratch("cleanup");
  before = new Set(liveMounts());
});

afterAll(() => {
  // Nothing of this file's is left mounted, anywhere: the suite-level leak check.
  expect(readMountInfo().filter((m) => m.target.startsWith(scratch))).toEqual([]);
  expect(liveMounts().filter((m) => !before.has(m))).toEqual([]);
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs a TypeScript program in a fresh node that makes mounts and then ends as `how` says. */
function runChild(
  how: "exit" | "throw" | "sigkill",
  childScratch: string,
): { signal: string | null; roots: string[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  const tsxDir = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const script = join(childScratch, "child.mts");
  writeFileSync(
    script,
    `import { prepareSnapshot } from ${JSON.stringify(join(here, "index.ts"))};
const [source, scratch, how] = process.argv.slice(2);
const snapshot = await prepareSnapshot(source, { scratchDir: scratch, into: scratch + "/kept" });
const a = await snapshot.checkout();
const b = await snapshot.checkout({ upper: "tmpfs" });
console.log(JSON.stringify([a.root, b.root]));
if (how === "sigkill") process.kill(process.pid, "SIGKILL");
if (how === "throw") throw new Error("crash before dispose");
`,
  );
  const source = makeSourceTree(childScratch);
  const result = spawnSync(
    process.execPath,
    ["--import", join(tsxDir, "dist", "loader.mjs"), script, source, childScratch, how],
    {
      encoding: "utf8",
    },
  );
  const roots = JSON.parse(result.stdout.trim().split("\n")[0] ?? "[]") as string[];
  return { signal: result.signal, roots };
}

/**
 * Sweep until no `acilab-cow-` directory is left: the dead owner's lock goes with its workspace
 * helper, which exits when it reads the end of its pipe — a moment after the owner is reaped.
 */
async function sweepUntilGone(parent: string): Promise<string[]> {
  const swept: string[] = [];
  await vi.waitFor(async () => {
    swept.push(...(await sweepStaleWorkspaces(parent)));
    expect(readdirSync(parent).filter((n) => n.startsWith("acilab-cow-"))).toEqual([]);
  }, EVENTUALLY);
  return swept;
}

needing("overlayfs", !canOverlay && "overlayfs cannot be mounted here").describe("no leaked mounts", () => {
  it("dispose detaches a checkout that a process is still using; reset refuses to", async () => {
    const s = await prepareSnapshot(makeSourceTree(scratch), { scratchDir: scratch });
    const c = await s.checkout();
    const squatter = spawn("sleep", ["30"], { cwd: c.root, stdio: "ignore" });
    try {
      // "spawn" comes after the exec: the squatter's working directory is in the mount by then.
      await once(squatter, "spawn");
      await expect(c.reset()).rejects.toThrow(/stop the processes working in it first/);
      await c.dispose();
      expect(readMountInfo().some((m) => m.target === c.root)).toBe(false);
      expect(existsSync(c.root)).toBe(false);
    } finally {
      squatter.kill("SIGKILL");
      await s.dispose();
    }
    expect(mountedUnder(scratch)).toEqual([]);
  });

  it.each(["exit", "throw"] as const)(
    "unmounts everything when the process ends without disposing (%s)",
    (how) => {
      const childScratch = join(scratch, `child-${how}`);
      mkdirSync(childScratch);
      const { roots } = runChild(how, childScratch);
      expect(roots).toHaveLength(2);
      expect(mountedUnder(childScratch)).toEqual([]);
      expect(readdirSync(childScratch).filter((n) => n.startsWith("acilab-cow-"))).toEqual([]);
    },
  );

  it("sweeps what a SIGKILLed process left behind", async () => {
    const childScratch = join(scratch, "child-sigkill");
    mkdirSync(childScratch);
    const { signal, roots } = runChild("sigkill", childScratch);
    expect(signal).toBe("SIGKILL");
    // Two overlays, the ext4 image and the tmpfs under them, and the read-only bind of the kept
    // snapshot outside its directory.
    expect(mountedUnder(childScratch)).toHaveLength(5);
    const swept = await sweepUntilGone(childScratch);
    expect(swept).toEqual(expect.arrayContaining([...roots, join(childScratch, "kept")]));
    expect(mountedUnder(childScratch)).toEqual([]);
    expect(readdirSync(childScratch).filter((n) => n.startsWith("acilab-cow-"))).toEqual([]);
    // A live owner's workspaces are never swept.
    const mine = await prepareSnapshot(makeSourceTree(scratch), { scratchDir: scratch });
    await mine.checkout();
    expect((await sweepStaleWorkspaces(scratch)).filter((t) => t.startsWith(scratch))).toEqual([]);
    expect(mountedUnder(scratch)).not.toEqual([]);
    await mine.dispose();
  });
});
