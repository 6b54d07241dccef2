/**
 * Every mount this package makes goes through here, so that nothing outlives the process: each
 * mount is recorded until it is unmounted, and an exit handler lazily unmounts whatever is left and
 * removes the directories we created. A process killed with SIGKILL cannot run that handler, so its
 * directories carry a lock it holds for its life, and `sweepStaleWorkspaces` (sweep.ts) clears those
 * whose lock is free. The syscalls themselves are made by a Mounter (mounters.ts): the workspace
 * helper, or the util-linux binaries.
 */
import { execFileSync } from "node:child_process";
import { isWithin } from "../paths.js";
import { sharedHelper } from "./helper.js";
import {
  BinaryMounter,
  HelperMounter,
  MOUNT_ENV,
  MountCallError,
  type Mounter,
  type OverlayLayers,
} from "./mounters.js";
import { mountsUnder, readMountInfo } from "./mountinfo.js";
import { deleteTree, deleteTreeSync } from "./remove.js";

export type { OverlayLayers } from "./mounters.js";

/** Directories we create start with this and the owner's pid (for people: ownership is the lock's). */
export const HOME_PREFIX = "acilab-cow-";
/** In such a directory: mount points outside it that it made (one a line), for the sweep to undo. */
export const EXTERNAL_MOUNTS_FILE = "external-mounts";
/** In such a directory: directories outside it that are its own (one a line), for the sweep to remove. */
export const EXTERNAL_DIRS_FILE = "external-dirs";
/** In such a directory: the file whose flock the owner holds while it lives (locks.ts). */
export const OWNER_LOCK_FILE = "owner.lock";

export class MountError extends Error {
  constructor(
    readonly target: string,
    message: string,
  ) {
    super(message);
    this.name = "MountError";
  }
}

type MountKind = "overlay" | "tmpfs" | "ext4" | "bind";
/** Live mounts in the order they were made; unmounting goes in reverse. */
const live = new Map<string, MountKind>();
/** Directories to remove at exit (after the unmounts). */
const ownedDirs = new Set<string>();
let exitHandlerInstalled = false;

function installExitHandler(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on("exit", cleanupSync);
}

const binary = new BinaryMounter();
let helper: HelperMounter | undefined;
let preferred: Mounter["name"] = "helper";

/** Choose how mounts are made from now on ("helper" is the default; the bench compares both). */
export function useMounter(name: Mounter["name"]): void {
  preferred = name;
}

/** The mounter the next call will use. */
export function currentMounter(): Mounter["name"] {
  return pick().name;
}

function pick(): Mounter {
  if (preferred === "binary") return binary;
  const shared = sharedHelper();
  if (!shared) return binary;
  helper ??= new HelperMounter(shared);
  return helper;
}

/**
 * Make one call; `what` ("mounting an overlay at /x") starts its error message. A helper that died is no reason to give
 * up on mounting: the call is repeated with the binaries.
 */
async function call(what: string, target: string, fn: (m: Mounter) => Promise<void>): Promise<void> {
  const mounter = pick();
  try {
    await fn(mounter);
  } catch (err) {
    if (!(err instanceof MountCallError)) throw err;
    if (mounter !== binary && !helper?.alive) return call(what, target, fn);
    const hint = /wrong fs type|bad option|Invalid argument/.test(err.message)
      ? " (the kernel log, dmesg, says why)"
      : "";
    throw new MountError(target, `${what} failed: ${err.message}${hint}`);
  }
}

/**
 * Every mount is `nosuid,nodev` (the mounters add them): a sandbox must not gain privileges or reach
 * devices through its workspace.
 * `index=off,redirect_dir=off,metacopy=off`: the kernel's defaults for these depend on its build
 * options, and each makes the upper layer less self-describing — with them off a changed file is
 * always fully copied up and a renamed lower directory is copied rather than recorded as a redirect
 * xattr, so the upper layer is a plain record of the changes that diff.ts can walk; metacopy is also
 * not safe with an upper layer an untrusted process wrote.
 */
const OVERLAY_OPTIONS = "index=off,redirect_dir=off,metacopy=off";
/**
 * `volatile` (Linux ≥ 5.10) skips syncing the upper filesystem. Without it every unmount of a
 * disk-backed overlay calls syncfs on the whole host filesystem — measured here at ~0.6 s with
 * 300 MB of unrelated dirty data. Upper layers are thrown away, so losing them in a crash is fine;
 * older kernels reject the option and we mount without it.
 */
const VOLATILE = "volatile";
let volatileRejected = false;

/**
 * The layers are passed as descriptors (mounters.ts), so no path of ours is in the mount's options:
 * a sandbox that reads /proc/self/mountinfo learns nothing about the host, and a path with a comma or
 * colon in it cannot split the options.
 */
export async function mountOverlay(layers: OverlayLayers, target: string): Promise<void> {
  const overlay = (options: string) =>
    call(`mounting an overlay at ${target}`, target, (m) => m.mountOverlay(layers, target, options));
  installExitHandler();
  if (volatileRejected) {
    await overlay(OVERLAY_OPTIONS);
  } else {
    try {
      await overlay(`${OVERLAY_OPTIONS},${VOLATILE}`);
    } catch {
      await overlay(OVERLAY_OPTIONS); // when this fails too, its error is the real problem
      volatileRejected = true;
    }
  }
  live.set(target, "overlay");
}

/** A size-capped tmpfs: a rollout that writes a huge file fills its own tmpfs, not the host's disk. */
export async function mountTmpfs(target: string, sizeBytes: number): Promise<void> {
  installExitHandler();
  await call(`mounting a tmpfs at ${target}`, target, (m) =>
    m.mountTmpfs(target, `size=${sizeBytes},mode=0755`),
  );
  live.set(target, "tmpfs");
}

/**
 * `noinit_itable`: the kernel would otherwise zero the inode tables in the background after mount,
 * writing them out to the image on the host disk; they are never read before being written.
 */
const IMAGE_OPTIONS = "noinit_itable";

/**
 * A new sparse ext4 image of `sizeBytes` at `image`, loop-mounted at `target`: a disk-backed
 * directory that cannot grow past its size (writes beyond it get ENOSPC). The image is the caller's to
 * delete after unmounting; the loop device goes away by itself with the last unmount. `template`: see
 * Mounter.mountImage.
 */
export async function mountImage(
  image: string,
  sizeBytes: number,
  target: string,
  template?: string,
): Promise<void> {
  installExitHandler();
  await call(`mounting an ext4 image at ${target}`, target, (m) =>
    m.mountImage(image, sizeBytes, target, IMAGE_OPTIONS, template),
  );
  live.set(target, "ext4");
}

/** Bind `dir` onto itself read-only: even root cannot change it until it is unmounted. */
export async function bindReadOnly(dir: string): Promise<void> {
  installExitHandler();
  await call(`bind-mounting ${dir} read-only`, dir, (m) => m.bindReadOnly(dir));
  live.set(dir, "bind");
}

function isMounted(target: string): boolean {
  return readMountInfo().some((m) => m.target === target);
}

/**
 * Unmount `target`. If it is busy (a process still has its cwd or a file open there) and `lazy` is
 * set, detach it instead: it leaves the tree at once and the kernel frees it when the last user lets
 * go. Without `lazy` a busy mount is an error.
 */
export async function unmount(target: string, options: { lazy: boolean }): Promise<{ detached: boolean }> {
  try {
    await call(`unmounting ${target}`, target, (m) => m.unmount(target, false));
    live.delete(target);
    return { detached: false };
  } catch (err) {
    if (!isMounted(target)) {
      live.delete(target);
      return { detached: false };
    }
    if (!options.lazy)
      throw new MountError(
        target,
        `${(err as Error).message}; stop the processes working in it first (dispose detaches lazily)`,
      );
    await call(`detaching ${target}`, target, (m) => m.unmount(target, true));
    live.delete(target);
    return { detached: true };
  }
}

/**
 * Detach `target` and every mount below it with one umount2(MNT_DETACH) — it takes the whole subtree —
 * for a teardown that owns all of them (a checkout's tmpfs with its overlay inside).
 */
export async function detachTree(target: string): Promise<void> {
  await call(`detaching ${target}`, target, (m) => m.unmount(target, true));
  for (const t of [...live.keys()]) if (isWithin(target, t)) live.delete(t);
}

/** Detach a mount a dead process left (not ours: not recorded); false when it is already gone. */
export async function unmountStale(target: string): Promise<boolean> {
  try {
    await pick().unmount(target, true);
    return true;
  } catch {
    return false; // another process swept it first
  }
}

/**
 * Remove a directory tree, unmounting anything mounted inside it first; the deletion itself never
 * crosses into a mount, follows a link or minds depth (remove.ts).
 */
export async function removeTree(dir: string): Promise<void> {
  for (const m of mountsUnder(dir)) await unmount(m.target, { lazy: true });
  await deleteTree(dir);
  ownedDirs.delete(dir);
}

export function ownDirectory(dir: string): void {
  installExitHandler();
  ownedDirs.add(dir);
}

/** The exit handler: lazily unmount everything still live (newest first), then remove our directories. */
export function cleanupSync(): void {
  for (const target of [...live.keys()].reverse()) {
    try {
      execFileSync("umount", ["-l", target], { env: MOUNT_ENV, stdio: "ignore" });
    } catch {
      // already gone, or nothing more we can do while exiting
    }
    live.delete(target);
  }
  for (const dir of ownedDirs) {
    try {
      if (mountsUnder(dir).length === 0) deleteTreeSync(dir);
    } catch {
      // best effort at exit
    }
  }
  ownedDirs.clear();
}

/** Mount points this process currently holds (for tests and `acilab doctor`). */
export function liveMounts(): string[] {
  return [...live.keys()];
}
