import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { needing } from "../../testing/needs.js";
import { writeTextInside } from "../files.js";
import { git } from "../git.js";
import { DEFAULT_WORKSPACE_BYTES } from "./capacity.js";
import { readMountInfo } from "./mountinfo.js";
import { prepareSnapshot } from "./snapshot.js";
import { makeScratch, makeSourceTree, mountedUnder, overlayWorksHere, treeFingerprint } from "./testing.js";
import type { Snapshot } from "./types.js";

const canOverlay = await overlayWorksHere();
let scratch: string;
const snapshots: Snapshot[] = [];

async function snap(...args: Parameters<typeof prepareSnapshot>): Promise<Snapshot> {
  const s = await prepareSnapshot(...args);
  snapshots.push(s);
  return s;
}

beforeAll(() => {
  scratch = makeScratch("snapshot");
});

afterEach(async () => {
  await Promise.all(snapshots.splice(0).map((s) => s.dispose()));
  expect(mountedUnder(scratch)).toEqual([]);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("prepareSnapshot", () => {
  it("copies the source, commits it, and leaves the source alone", async () => {
    const source = makeSourceTree(scratch);
    const s = await snap(source, { scratchDir: scratch });
    expect(existsSync(join(source, ".git"))).toBe(false);
    expect((await git(s.dir, ["rev-parse", "HEAD"])).trim()).toBe(s.base);
    expect(await git(s.dir, ["status", "--porcelain"])).toBe("");
    expect(readFileSync(join(s.dir, "src/app.py"), "utf8")).toContain("double(2)");
    expect(s.dir).toBe(realpathSync(s.dir));
  });

  needing("overlayfs", !canOverlay && "overlayfs cannot be mounted here").it(
    "makes the snapshot read-only, even for root, until disposed",
    async () => {
      const s = await snap(makeSourceTree(scratch), { scratchDir: scratch });
      expect(s.protection).toBe("read-only bind mount");
      expect(s.warning).toBeUndefined();
      expect(() => writeFileSync(join(s.dir, "src/app.py"), "pwned")).toThrow(/EROFS/);
      expect(readMountInfo().find((m) => m.target === s.dir)?.mountOptions).toContain("ro");
    },
  );

  it("keeps a copy made `into` a directory, and reuses it in place with `prepared`", async () => {
    const into = join(scratch, "kept-snapshot");
    const first = await snap(makeSourceTree(scratch), { scratchDir: scratch, into });
    expect(first.dir).toBe(into);
    await first.dispose();
    snapshots.splice(0);
    expect(existsSync(join(into, ".git"))).toBe(true);
    const again = await snap(into, { prepared: true, scratchDir: scratch });
    expect(again.dir).toBe(into);
    expect(again.base).toBe(first.base);
    const c = await again.checkout();
    expect(readFileSync(join(c.root, "README.md"), "utf8")).toBe("# demo\n");
    await again.dispose();
    expect(existsSync(join(into, "README.md"))).toBe(true);
    rmSync(into, { recursive: true });
  });

  it("refuses a prepared directory that is not a clean repository, saying what to do", async () => {
    const source = makeSourceTree(scratch);
    await expect(prepareSnapshot(source, { prepared: true, scratchDir: scratch })).rejects.toThrow(
      /not a git repository — omit `prepared`/,
    );
    await git(source, ["init", "-q"]);
    await expect(prepareSnapshot(source, { prepared: true, scratchDir: scratch })).rejects.toThrow(
      /no commit, or uncommitted or untracked files — commit them first/,
    );
    const into = join(scratch, "not-empty");
    mkdirSync(into);
    writeFileSync(join(into, "x"), "");
    await expect(prepareSnapshot(source, { into, scratchDir: scratch })).rejects.toThrow(/is not empty/);
    expect(mountedUnder(scratch)).toEqual([]);
  });
});

needing("overlayfs", !canOverlay && "overlayfs cannot be mounted here").describe("overlay checkouts", () => {
  it("mounts nosuid,nodev with a plain upper layer, and resets to the snapshot in place", async () => {
    const s = await snap(makeSourceTree(scratch), { scratchDir: scratch });
    const c = await s.checkout();
    expect(c.kind).toBe("overlay");
    expect(c.warning).toBeUndefined();
    expect(c.root).toBe(realpathSync(c.root));
    const mount = readMountInfo().find((m) => m.target === c.root);
    expect(mount?.fsType).toBe("overlay");
    expect(mount?.mountOptions).toEqual(expect.arrayContaining(["nosuid", "nodev"]));
    // The kernel lists only options that differ from its defaults; none of these may be on.
    // The layers reach the kernel as descriptors: no host path in options anyone can read.
    expect(mount?.superOptions).toEqual(
      expect.arrayContaining([expect.stringMatching(/^lowerdir=\/proc\/self\/fd\/\d+$/)]),
    );
    expect(mount?.superOptions.join(",")).not.toContain(scratch);
    expect(mount?.superOptions.some((o) => o === "volatile" || o === "fsync=volatile")).toBe(true);
    for (const on of ["index=on", "redirect_dir=on", "metacopy=on"])
      expect(mount?.superOptions).not.toContain(on);

    writeFileSync(join(c.root, "src/app.py"), "print('edited')\n");
    writeFileSync(join(c.root, "notes.txt"), "scratch\n");
    rmSync(join(c.root, "docs"), { recursive: true });
    const firstUpper = c.layers?.upper;
    await c.reset();
    expect(c.layers?.upper).not.toBe(firstUpper);
    expect(await c.diff()).toEqual({ added: [], modified: [], deleted: [], uncarried: [] });
    expect(readFileSync(join(c.root, "src/app.py"), "utf8")).toContain("double(2)");
    expect(existsSync(join(c.root, "notes.txt"))).toBe(false);
    expect(existsSync(join(c.root, "docs/guide.md"))).toBe(true);
    // The reset checkout works as before.
    writeFileSync(join(c.root, "README.md"), "# again\n");
    expect(await c.diff()).toEqual({ added: [], modified: ["README.md"], deleted: [], uncarried: [] });
  });

  it("gives 20 concurrent checkouts their own changes to the same file, and the snapshot none", async () => {
    const s = await snap(makeSourceTree(scratch), { scratchDir: scratch });
    const before = treeFingerprint(s.dir);
    const checkouts = await Promise.all(Array.from({ length: 20 }, () => s.checkout()));
    expect(new Set(checkouts.map((c) => c.root)).size).toBe(20);
    expect(checkouts.every((c) => c.kind === "overlay" && c.storage === "ext4 image")).toBe(true);
    await Promise.all(
      checkouts.map(async (c, i) => writeFileSync(join(c.root, "src/app.py"), `print(${i})\n`)),
    );
    await Promise.all(
      checkouts.map(async (c, i) => {
        expect(readFileSync(join(c.root, "src/app.py"), "utf8")).toBe(`print(${i})\n`);
        expect(await c.diff()).toEqual({ added: [], modified: ["src/app.py"], deleted: [], uncarried: [] });
        expect(await c.gitDiff()).toContain(`+print(${i})\n`);
      }),
    );
    expect(treeFingerprint(s.dir)).toBe(before);
    expect(s.checkouts).toHaveLength(20);
    await Promise.all(checkouts.map((c) => c.dispose()));
    expect(s.checkouts).toHaveLength(0);
    expect(mountedUnder(scratch)).toEqual([s.dir]);
  });

  it("keeps a tmpfs upper layer to its size cap", async () => {
    const s = await snap(makeSourceTree(scratch), { scratchDir: scratch });
    const c = await s.checkout({ upper: "tmpfs", maxBytes: 1024 * 1024 });
    // The tmpfs holds the whole checkout directory: layers and the merged root's mount point.
    const layers = readMountInfo().find((m) => c.layers && m.target === join(c.layers.upper, "..", ".."));
    expect(layers?.fsType).toBe("tmpfs");
    expect(layers?.mountOptions).toEqual(expect.arrayContaining(["nosuid", "nodev"]));
    writeFileSync(join(c.root, "small.bin"), Buffer.alloc(256 * 1024));
    expect(() => writeFileSync(join(c.root, "big.bin"), Buffer.alloc(2 * 1024 * 1024))).toThrow(/ENOSPC/);
    await c.reset();
    writeFileSync(join(c.root, "again.bin"), Buffer.alloc(512 * 1024));
    expect((await c.diff()).added).toEqual(["again.bin"]);
  });

  it("keeps a disk upper layer to its size cap too, in a sparse ext4 image of its own", async () => {
    const s = await snap(makeSourceTree(scratch), { scratchDir: scratch });
    const cap = 8 * 1024 * 1024;
    const c = await s.checkout({ maxBytes: cap });
    expect(c).toMatchObject({ kind: "overlay", storage: "ext4 image", capBytes: cap });
    const dir = join(c.layers?.upper ?? "", "..", "..");
    const fs = readMountInfo().find((m) => m.target === dir);
    expect(fs?.fsType).toBe("ext4");
    expect(fs?.mountOptions).toEqual(expect.arrayContaining(["nosuid", "nodev"]));
    writeFileSync(join(c.root, "small.bin"), Buffer.alloc(2 * 1024 * 1024));
    expect(() => writeFileSync(join(c.root, "big.bin"), Buffer.alloc(2 * cap))).toThrow(/ENOSPC/);
    // The file tools say so as an observation the model can act on.
    await expect(writeTextInside(c.root, "notes.txt", "x".repeat(cap), "new")).rejects.toMatchObject({
      kind: "no_space",
      message: expect.stringMatching(/^the workspace is full .* notes\.txt could not be written/),
    });
    // On the host the image holds what was written, never more than the cap.
    const image = statSync(`${dir}.img`);
    expect(image.size).toBe(cap);
    expect(image.blocks * 512).toBeLessThanOrEqual(cap);
    await c.dispose();
    expect(existsSync(`${dir}.img`)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it("takes the cap from ACILAB_WORKSPACE_BYTES unless the caller gives one, and refuses a bad one", async () => {
    const s = await snap(makeSourceTree(scratch), { scratchDir: scratch });
    const saved = process.env.ACILAB_WORKSPACE_BYTES;
    try {
      process.env.ACILAB_WORKSPACE_BYTES = "3M";
      const fromEnv = await s.checkout({ upper: "tmpfs" });
      expect(fromEnv.capBytes).toBe(3 * 1024 * 1024);
      expect(statfsSync(fromEnv.root).blocks * statfsSync(fromEnv.root).bsize).toBe(3 * 1024 * 1024);
      expect((await s.checkout({ maxBytes: 2 * 1024 * 1024 })).capBytes).toBe(2 * 1024 * 1024);
      process.env.ACILAB_WORKSPACE_BYTES = "lots";
      await expect(s.checkout()).rejects.toThrow(
        /ACILAB_WORKSPACE_BYTES="lots" is not a size: give bytes, or a number with K, M or G/,
      );
      delete process.env.ACILAB_WORKSPACE_BYTES;
      expect((await s.checkout()).capBytes).toBe(DEFAULT_WORKSPACE_BYTES);
    } finally {
      if (saved === undefined) delete process.env.ACILAB_WORKSPACE_BYTES;
      else process.env.ACILAB_WORKSPACE_BYTES = saved;
    }
  });

  it("lets git work inside a checkout while the snapshot's repository stays untouched", async () => {
    const s = await snap(makeSourceTree(scratch), { scratchDir: scratch });
    const before = treeFingerprint(s.dir);
    const c = await s.checkout();
    const run = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: c.root,
        encoding: "utf8",
      });
    writeFileSync(join(c.root, "src/util.py"), "def double(x):\n    return x + x\n");
    expect(run("status", "--porcelain")).toBe(" M src/util.py\n");
    run("checkout", "-q", "-b", "agent");
    run("commit", "-qam", "agent: simpler double");
    expect(run("rev-parse", "--abbrev-ref", "HEAD")).toBe("agent\n");
    expect(treeFingerprint(s.dir)).toBe(before);
    expect((await git(s.dir, ["rev-parse", "--abbrev-ref", "HEAD"])).trim()).toBe("main");
    expect(await c.gitDiff()).toContain("+    return x + x");
  });
});
