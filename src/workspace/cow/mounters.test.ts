import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { needing } from "../../testing/needs.js";
import { EVENTUALLY } from "../../testing/time.js";
import { BinaryMounter, HelperMounter, MountCallError, type Mounter } from "./mounters.js";
import { readMountInfo } from "./mountinfo.js";
import { makeScratch, mountedUnder, overlayWorksHere } from "./testing.js";

const canMount = await overlayWorksHere();
let scratch: string;
const helper = HelperMounter.start();

beforeAll(() => {
  scratch = makeScratch("mounters");
});

afterAll(() => {
  helper?.stop();
  expect(mountedUnder(scratch)).toEqual([]);
  rmSync(scratch, { recursive: true, force: true });
});

const mounters: Mounter[] = [new BinaryMounter(), ...(helper ? [helper] : [])];

/** Loop devices whose backing file is `image` (sysfs names it). */
function loopsBackedBy(image: string): string[] {
  return readdirSync("/sys/block").filter((d) => {
    try {
      return readFileSync(`/sys/block/${d}/loop/backing_file`, "utf8").trim() === image;
    } catch {
      return false;
    }
  });
}

for (const { name, m } of mounters.map((m) => ({ name: m.name, m })))
  needing("overlayfs", !canMount && "overlayfs cannot be mounted here").describe(
    `the ${name} mounter`,
    () => {
      it("mounts an overlay and a tmpfs nosuid,nodev, binds read-only, and unmounts", async () => {
        const base = join(scratch, name);
        for (const d of ["lower", "upper", "work", "merged", "tmp"])
          mkdirSync(join(base, d), { recursive: true });
        writeFileSync(join(base, "lower", "a.txt"), "a\n");
        const merged = join(base, "merged");
        const layers = { lower: `${base}/lower`, upper: `${base}/upper`, work: `${base}/work` };
        await m.mountOverlay(layers, merged, "index=off");
        await m.mountTmpfs(join(base, "tmp"), "size=65536,mode=0755");
        await m.bindReadOnly(join(base, "lower"));
        const info = new Map(readMountInfo().map((e) => [e.target, e]));
        expect(info.get(merged)?.fsType).toBe("overlay");
        expect(info.get(merged)?.mountOptions).toEqual(expect.arrayContaining(["nosuid", "nodev"]));
        expect(info.get(join(base, "tmp"))?.superOptions).toContain("size=64k");
        expect(info.get(join(base, "lower"))?.mountOptions).toEqual(
          expect.arrayContaining(["ro", "nosuid", "nodev"]),
        );
        expect(() => writeFileSync(join(base, "lower", "b.txt"), "")).toThrow(/EROFS/);
        writeFileSync(join(merged, "b.txt"), "b\n");

        const squatter = spawn("sleep", ["30"], { cwd: merged, stdio: "ignore" });
        // "spawn" comes after the exec: the squatter's working directory is in the mount by then.
        await once(squatter, "spawn");
        await expect(m.unmount(merged, false)).rejects.toThrow(/busy/i);
        await m.unmount(merged, true);
        squatter.kill("SIGKILL");
        for (const t of ["tmp", "lower"]) await m.unmount(join(base, t), false);
        expect(mountedUnder(base)).toEqual([]);
      });

      it("passes an overlay's layers as descriptors: its options name no host path", async () => {
        const base = join(scratch, `${name}-fds`);
        for (const d of ["lower", "upper", "work", "merged"]) mkdirSync(join(base, d), { recursive: true });
        writeFileSync(join(base, "lower", "a.txt"), "a\n");
        const merged = join(base, "merged");
        await m.mountOverlay(
          { lower: `${base}/lower`, upper: `${base}/upper`, work: `${base}/work` },
          merged,
          "index=off",
        );
        const options = readMountInfo().find((e) => e.target === merged)?.superOptions ?? [];
        expect(options.filter((o) => /^(lower|upper|work)dir=/.test(o))).toEqual([
          expect.stringMatching(/^lowerdir=\/proc\/self\/fd\/\d+$/),
          expect.stringMatching(/^upperdir=\/proc\/self\/fd\/\d+$/),
          expect.stringMatching(/^workdir=\/proc\/self\/fd\/\d+$/),
        ]);
        expect(readFileSync(join(merged, "a.txt"), "utf8")).toBe("a\n");
        await m.unmount(merged, false);
      });

      it("makes a sparse ext4 image of a fixed size, loop-mounted; the loop device goes with the unmount", async () => {
        const base = join(scratch, `${name}-image`);
        mkdirSync(join(base, "fs"), { recursive: true });
        const image = join(base, "fs.img");
        await m.mountImage(image, 4 * 1024 * 1024, join(base, "fs"), "noinit_itable");
        const info = readMountInfo().find((e) => e.target === join(base, "fs"));
        expect(info?.fsType).toBe("ext4");
        expect(info?.mountOptions).toEqual(expect.arrayContaining(["nosuid", "nodev"]));
        expect(statSync(image).size).toBe(4 * 1024 * 1024);
        expect(statSync(image).blocks * 512).toBeLessThan(1024 * 1024); // sparse: metadata only
        expect(() => writeFileSync(join(base, "fs", "big"), Buffer.alloc(8 * 1024 * 1024))).toThrow(/ENOSPC/);
        expect(loopsBackedBy(image)).toHaveLength(1);
        await m.unmount(join(base, "fs"), false);
        await vi.waitFor(() => expect(loopsBackedBy(image)).toEqual([]), EVENTUALLY);
        // An image that exists is never overwritten…
        await expect(m.mountImage(image, 4 * 1024 * 1024, join(base, "fs"), "")).rejects.toThrow(/exists/i);
        expect(statSync(image).size).toBe(4 * 1024 * 1024); // nor removed
      });

      it("copies images from a formatted template: each its own filesystem", async () => {
        const base = join(scratch, `${name}-template`);
        const template = join(base, "template.img");
        for (const d of ["a", "b"]) mkdirSync(join(base, d), { recursive: true });
        for (const d of ["a", "b"])
          await m.mountImage(join(base, `${d}.img`), 2 * 1024 * 1024, join(base, d), "", template);
        writeFileSync(join(base, "a", "only-a.txt"), "a\n");
        expect(readdirSync(join(base, "b"))).not.toContain("only-a.txt");
        for (const d of ["a", "b"]) await m.unmount(join(base, d), false);
      });

      it("phrases a failure without repeating the target", async () => {
        const missing = join(scratch, "does-not-exist");
        const err = await m.mountTmpfs(missing, "size=1m").catch((e: unknown) => e);
        expect(err).toBeInstanceOf(MountCallError);
        expect((err as Error).message).toMatch(/No such file or directory|does not exist/);
        expect((err as Error).message).not.toContain(`${missing}: `);
      });
    },
  );

needing("overlayfs", !helper && "the mount helper did not start").describe("the helper", () => {
  it("rejects calls once it has exited, so the caller can switch to the binaries", async () => {
    const doomed = HelperMounter.start();
    if (!doomed) throw new Error("no helper");
    doomed.stop();
    await vi.waitFor(() => expect(doomed.alive).toBe(false), EVENTUALLY);
    await expect(doomed.unmount("/nonexistent", false)).rejects.toThrow(/the workspace helper exited/);
  });
});
