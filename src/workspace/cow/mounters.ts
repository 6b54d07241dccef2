/**
 * Two ways to make the mount(2) and umount2(2) calls Node cannot make itself.
 *
 * - "binary": util-linux `mount`/`umount` (and `mkfs.ext4`) through execFile — argv, no shell, a fixed
 *   PATH and no inherited environment (libmount reads LIBMOUNT_* variables). On every Linux machine,
 *   but each call is a process start: ~7 ms on an idle 2-core VM, ~16 ms under load, for a ~0.1 ms
 *   syscall.
 * - "helper": the workspace helper (helper.ts), one long-lived `python3 -I -S` process (the
 *   interpreter is already a bootstrap dependency) that makes the syscalls itself, ~0.5–1 ms a call.
 *
 * The helper is used when a system python3 exists; if it cannot start or dies, calls go to the
 * binaries from then on.
 */
import { execFile, spawn } from "node:child_process";
import { closeSync, constants, ftruncateSync, openSync, rmSync } from "node:fs";
import { promisify } from "node:util";
import { ERRNO, HelperCallError, HostHelper } from "./helper.js";

const run = promisify(execFile);

/** Where `mount`, `umount` and `mkfs.ext4` are looked up: system directories only, never the caller's PATH. */
export const MOUNT_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };

export interface OverlayLayers {
  lower: string;
  upper: string;
  work: string;
}

export interface Mounter {
  readonly name: "helper" | "binary";
  /** `data` is the tmpfs's option string (`size=…,mode=…`); nosuid and nodev are always set. */
  mountTmpfs(target: string, data: string): Promise<void>;
  /**
   * An overlay whose layers reach the kernel as descriptors (`lowerdir=/proc/self/fd/N`): its options,
   * which anyone who sees the mount reads in /proc/self/mountinfo — a sandbox too — name no host path.
   */
  mountOverlay(layers: OverlayLayers, target: string, options: string): Promise<void>;
  /**
   * A new sparse ext4 image of `bytes` at `image` (which must not exist), loop-mounted at `target`.
   * With `template`, a formatted image kept there (made on first use) is copied instead of running
   * mkfs each time; the template is the caller's to delete.
   */
  mountImage(image: string, bytes: number, target: string, options: string, template?: string): Promise<void>;
  bindReadOnly(dir: string): Promise<void>;
  /** `detach`: MNT_DETACH, `umount -l`. */
  unmount(target: string, detach: boolean): Promise<void>;
}

/** A failed call, phrased without the target (the caller names it). */
export class MountCallError extends Error {}

/** No journal, no room to grow, inode tables never zeroed: the image stays sparse (~170 KiB of metadata). */
const MKFS_ARGS = [
  "-q",
  "-F",
  "-O",
  "^has_journal,^resize_inode",
  "-E",
  "lazy_itable_init=1,nodiscard",
  "-m",
  "0",
];

export class BinaryMounter implements Mounter {
  readonly name = "binary";

  async mountTmpfs(target: string, data: string): Promise<void> {
    await this.call("mount", ["-t", "tmpfs", "-o", `${data},nosuid,nodev`, "acilab-cow", target], target);
  }

  async mountOverlay(layers: OverlayLayers, target: string, options: string): Promise<void> {
    const fds: number[] = [];
    try {
      for (const dir of [layers.lower, layers.upper, layers.work])
        fds.push(openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW));
      // The child sees them as its descriptors 3, 4 and 5.
      const data = `lowerdir=/proc/self/fd/3,upperdir=/proc/self/fd/4,workdir=/proc/self/fd/5,${options},nosuid,nodev`;
      await this.spawnWith("mount", ["-t", "overlay", "-o", data, "overlay", target], fds, target);
    } finally {
      for (const fd of fds) closeSync(fd);
    }
  }

  async mountImage(image: string, bytes: number, target: string, options: string): Promise<void> {
    const fd = openSync(
      image,
      constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      ftruncateSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    try {
      await this.call("mkfs.ext4", [...MKFS_ARGS, image], target);
      // util-linux sets up the loop device with autoclear: it goes away with the last unmount.
      await this.call("mount", ["-t", "ext4", "-o", `loop,${options},nosuid,nodev`, image, target], target);
    } catch (err) {
      rmSync(image, { force: true });
      throw err;
    }
  }

  async bindReadOnly(dir: string): Promise<void> {
    // util-linux (≥ 2.27) does the bind and the read-only remount a bind needs in one command.
    await this.call("mount", ["--bind", "-o", "ro,nosuid,nodev", dir, dir], dir);
  }

  async unmount(target: string, detach: boolean): Promise<void> {
    await this.call("umount", detach ? ["-l", target] : [target], target);
  }

  private async call(binary: string, args: string[], target: string): Promise<void> {
    try {
      await run(binary, args, { env: MOUNT_ENV });
    } catch (err) {
      const e = err as { code?: string | number; stderr?: string; message: string };
      if (e.code === "ENOENT") throw new MountCallError(`the ${binary} binary is not installed`);
      throw new MountCallError(firstLine(binary, e.stderr ?? e.message, target));
    }
  }

  /** Like call, with `fds` handed to the child as its descriptors 3, 4, … */
  private spawnWith(binary: string, args: string[], fds: number[], target: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(binary, args, { env: MOUNT_ENV, stdio: ["ignore", "ignore", "pipe", ...fds] });
      let stderr = "";
      child.stderr?.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      child.on("error", (e: NodeJS.ErrnoException) =>
        reject(new MountCallError(e.code === "ENOENT" ? `the ${binary} binary is not installed` : e.message)),
      );
      child.on("close", (code) => {
        if (code === 0) resolve();
        else reject(new MountCallError(firstLine(binary, stderr || `exit ${code}`, target)));
      });
    });
  }
}

function firstLine(binary: string, text: string, target: string): string {
  const first = text.split("\n")[0]?.trim() ?? "";
  return first.replace(`${binary}: ${target}: `, "").replace(/\.$/, "");
}

/** From <sys/mount.h>. */
const MS_RDONLY = 1;
const MS_NOSUID = 2;
const MS_NODEV = 4;
const MS_REMOUNT = 32;
const MS_BIND = 4096;
const MNT_DETACH = 2;

export class HelperMounter implements Mounter {
  readonly name = "helper";

  constructor(private readonly helper: HostHelper) {}

  /** A mounter with a helper of its own (tests); acilab shares one helper per process (mounts.ts). */
  static start(): HelperMounter | undefined {
    const helper = HostHelper.start();
    return helper ? new HelperMounter(helper) : undefined;
  }

  get alive(): boolean {
    return this.helper.alive;
  }

  mountTmpfs(target: string, data: string): Promise<void> {
    const flags = MS_NOSUID | MS_NODEV;
    return this.send("mount", { source: "acilab-cow", target, fstype: "tmpfs", flags, data });
  }

  mountOverlay(layers: OverlayLayers, target: string, options: string): Promise<void> {
    return this.send("overlay", { ...layers, target, flags: MS_NOSUID | MS_NODEV, options });
  }

  mountImage(
    image: string,
    bytes: number,
    target: string,
    options: string,
    template?: string,
  ): Promise<void> {
    const request = {
      image,
      bytes,
      target,
      flags: MS_NOSUID | MS_NODEV,
      options,
      template: template ?? null,
    };
    return this.helper.call("image", request).then(
      () => undefined,
      (err) => {
        // The image is ours to remove unless it was there before (and so was never touched).
        if (!(err instanceof HelperCallError && err.errno === ERRNO.EEXIST)) rmSync(image, { force: true });
        throw err instanceof HelperCallError ? new MountCallError(err.message) : err;
      },
    );
  }

  async bindReadOnly(dir: string): Promise<void> {
    // A bind ignores MS_RDONLY; read-only takes a second call that remounts the bind.
    await this.send("mount", { source: dir, target: dir, fstype: null, flags: MS_BIND, data: null });
    const flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV;
    try {
      await this.send("mount", { source: null, target: dir, fstype: null, flags, data: null });
    } catch (err) {
      await this.send("umount", { target: dir, flags: MNT_DETACH }).catch(() => undefined);
      throw err;
    }
  }

  unmount(target: string, detach: boolean): Promise<void> {
    return this.send("umount", { target, flags: detach ? MNT_DETACH : 0 });
  }

  /** Stop this mounter's helper (tests). */
  stop(): void {
    this.helper.stop();
  }

  private async send(op: string, args: Record<string, unknown>): Promise<void> {
    try {
      await this.helper.call(op, args);
    } catch (err) {
      if (err instanceof HelperCallError) throw new MountCallError(err.message);
      throw err;
    }
  }
}
