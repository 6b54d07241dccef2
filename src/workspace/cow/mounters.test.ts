import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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

describe.skipIf(!canMount).each(mounters.map((m) => ({ name: m.name, m })))(
  "the $name mounter",
  ({ name, m }) => {
    it("mounts an overlay and a tmpfs nosuid,nodev, binds read-only, and unmounts", async () => {
      const base = join(scratch, name);
      for (const d of ["lower", "upper", "work", "merged", "tmp"])
        mkdirSync(join(base, d), { recursive: true });
      writeFileSync(join(base, "lower", "a.txt"), "a\n");
      const merged = join(base, "merged");
      await m.mount("overlay", merged, `lowerdir=${base}/lower,upperdir=${base}/upper,workdir=${base}/work`);
      await m.mount("tmpfs", join(base, "tmp"), "size=65536,mode=0755");
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
      await new Promise((r) => setTimeout(r, 100));
      await expect(m.unmount(merged, false)).rejects.toThrow(/busy/i);
      await m.unmount(merged, true);
      squatter.kill("SIGKILL");
      for (const t of ["tmp", "lower"]) await m.unmount(join(base, t), false);
      expect(mountedUnder(base)).toEqual([]);
    });

    it("phrases a failure without repeating the target", async () => {
      const missing = join(scratch, "does-not-exist");
      const err = await m.mount("tmpfs", missing, "size=1m").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MountCallError);
      expect((err as Error).message).toMatch(/No such file or directory|does not exist/);
      expect((err as Error).message).not.toContain(`${missing}: `);
    });
  },
);

describe.skipIf(!helper)("the helper", () => {
  it("rejects calls once it has exited, so the caller can switch to the binaries", async () => {
    const doomed = HelperMounter.start();
    if (!doomed) throw new Error("no helper");
    doomed.stop();
    await vi.waitFor(() => expect(doomed.alive).toBe(false), { timeout: 10_000, interval: 20 });
    await expect(doomed.unmount("/nonexistent", false)).rejects.toThrow(/the mount helper exited/);
  });
});
