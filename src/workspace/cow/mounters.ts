/**
 * Two ways to make the mount(2) and umount2(2) calls Node cannot make itself.
 *
 * - "binary": util-linux `mount`/`umount` through execFile — argv, no shell, a fixed PATH and no
 *   inherited environment (libmount reads LIBMOUNT_* variables). On every Linux machine, but each
 *   call is a process start: ~7 ms on an idle 2-core VM, ~16 ms under load, for a ~0.1 ms syscall.
 * - "helper": one long-lived `python3 -I -S` process (the interpreter is already a bootstrap
 *   dependency) that makes the two syscalls through ctypes for JSON requests on its stdin, ~0.5–1 ms
 *   a call. Only this process holds its pipe; it can do nothing but mount and unmount what we name.
 *
 * The helper is used when a system python3 exists; if it cannot start or dies, calls go to the
 * binaries from then on.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where `mount` and `umount` are looked up: system directories only, never the caller's PATH. */
export const MOUNT_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };

export interface Mounter {
  readonly name: "helper" | "binary";
  /** `data` is the filesystem's option string (`lowerdir=…`, `size=…`); nosuid and nodev are always set. */
  mount(fsType: "overlay" | "tmpfs", target: string, data: string): Promise<void>;
  bindReadOnly(dir: string): Promise<void>;
  /** `detach`: MNT_DETACH, `umount -l`. */
  unmount(target: string, detach: boolean): Promise<void>;
}

/** A failed call, phrased without the target (the caller names it). */
export class MountCallError extends Error {}

export class BinaryMounter implements Mounter {
  readonly name = "binary";

  async mount(fsType: "overlay" | "tmpfs", target: string, data: string): Promise<void> {
    const source = fsType === "tmpfs" ? "acilab-cow" : "overlay";
    await this.call("mount", ["-t", fsType, "-o", `${data},nosuid,nodev`, source, target], target);
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
      const first = (e.stderr ?? e.message).split("\n")[0]?.trim() ?? "";
      throw new MountCallError(first.replace(`${binary}: ${target}: `, "").replace(/\.$/, ""));
    }
  }
}

/** From <sys/mount.h>. */
const MS_RDONLY = 1;
const MS_NOSUID = 2;
const MS_NODEV = 4;
const MS_REMOUNT = 32;
const MS_BIND = 4096;
const MNT_DETACH = 2;

/** The whole helper: read a request, make the syscall, answer with errno (0 for success). */
const HELPER_SOURCE = `
import ctypes, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p)
libc.umount2.argtypes = (ctypes.c_char_p, ctypes.c_int)
enc = lambda s: None if s is None else os.fsencode(s)
for line in sys.stdin:
    r = json.loads(line)
    if r["op"] == "mount":
        rc = libc.mount(enc(r["source"]), enc(r["target"]), enc(r["fstype"]), r["flags"], enc(r["data"]))
    else:
        rc = libc.umount2(enc(r["target"]), r["flags"])
    e = 0 if rc == 0 else ctypes.get_errno()
    sys.stdout.write(json.dumps({"errno": e, "error": os.strerror(e) if e else ""}) + "\\n")
    sys.stdout.flush()
`;

/** System interpreters only: a pyenv shim on PATH costs ~120 ms and is the user's to change. */
const PYTHONS = ["/usr/bin/python3", "/usr/local/bin/python3"];

type Request =
  | {
      op: "mount";
      source: string | null;
      target: string;
      fstype: string | null;
      flags: number;
      data: string | null;
    }
  | { op: "umount"; target: string; flags: number };

export class HelperMounter implements Mounter {
  readonly name = "helper";
  private readonly pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  private dead: string | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    const fail = (why: string) => {
      this.dead ??= why;
      for (const p of this.pending.splice(0)) p.reject(new MountCallError(`the mount helper ${why}`));
    };
    child.on("error", (e) => fail(`failed: ${e.message}`));
    child.on("exit", (code, signal) => fail(`exited (${signal ?? code})`));
    child.stdin.on("error", () => undefined); // reported through "exit"
    createInterface({ input: child.stdout }).on("line", (line) => {
      const reply = JSON.parse(line) as { errno: number; error: string };
      const waiter = this.pending.shift();
      if (this.pending.length === 0) this.hold(false);
      if (reply.errno === 0) waiter?.resolve();
      else waiter?.reject(new MountCallError(`${reply.error} (errno ${reply.errno})`));
    });
    // The helper must not keep this process alive when idle (it exits when our end of the pipe
    // closes), but must while a reply is awaited: see hold().
    child.unref();
    this.hold(false);
  }

  static start(): HelperMounter | undefined {
    const python = PYTHONS.find((p) => existsSync(p));
    if (!python) return undefined;
    const child = spawn(python, ["-I", "-S", "-c", HELPER_SOURCE], { env: {}, stdio: "pipe" });
    return new HelperMounter(child);
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  mount(fsType: "overlay" | "tmpfs", target: string, data: string): Promise<void> {
    const source = fsType === "tmpfs" ? "acilab-cow" : "overlay";
    return this.send({ op: "mount", source, target, fstype: fsType, flags: MS_NOSUID | MS_NODEV, data });
  }

  async bindReadOnly(dir: string): Promise<void> {
    // A bind ignores MS_RDONLY; read-only takes a second call that remounts the bind.
    await this.send({ op: "mount", source: dir, target: dir, fstype: null, flags: MS_BIND, data: null });
    const flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV;
    try {
      await this.send({ op: "mount", source: null, target: dir, fstype: null, flags, data: null });
    } catch (err) {
      await this.send({ op: "umount", target: dir, flags: MNT_DETACH }).catch(() => undefined);
      throw err;
    }
  }

  unmount(target: string, detach: boolean): Promise<void> {
    return this.send({ op: "umount", target, flags: detach ? MNT_DETACH : 0 });
  }

  /** Stop the helper (tests); it also stops by itself when this process exits. */
  stop(): void {
    this.child.stdin.end();
  }

  /** Keep the event loop alive through the helper's pipes only while replies are outstanding. */
  private hold(on: boolean): void {
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) {
      const handle = stream as unknown as { ref?: () => void; unref?: () => void };
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  }

  private send(request: Request): Promise<void> {
    if (this.dead) return Promise.reject(new MountCallError(`the mount helper ${this.dead}`));
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) this.hold(true);
      this.pending.push({ resolve, reject });
      this.child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }
}
