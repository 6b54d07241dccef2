/**
 * Every mount this package makes goes through here, so that nothing outlives the process: each
 * mount is recorded until it is unmounted, and an exit handler lazily unmounts whatever is left and
 * removes the directories we created. A process killed with SIGKILL cannot run that handler, so the
 * directories carry the owner's pid and `sweepStaleWorkspaces` clears those of dead owners. The
 * syscalls themselves are made by a Mounter (mounters.ts): a small python3 helper, or the util-linux
 * binaries.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isWithin } from "../paths.js";
import { BinaryMounter, HelperMounter, MOUNT_ENV, MountCallError, type Mounter } from "./mounters.js";
import { mountsUnder, readMountInfo } from "./mountinfo.js";

/** Directories we create start with this and the owner's pid, so a later process can tell whose they are. */
export const HOME_PREFIX = "acilab-cow-";
/** In such a directory: mount points outside it that it made (one a line), for the sweep to undo. */
export const EXTERNAL_MOUNTS_FILE = "external-mounts";

export class MountError extends Error {
  constructor(
    readonly target: string,
    message: string,
  ) {
    super(message);
    this.name = "MountError";
  }
}

type MountKind = "overlay" | "tmpfs" | "bind";
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
/** undefined: not started yet; null: no system python3. */
let helper: HelperMounter | null | undefined;
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
  if (helper === undefined) helper = HelperMounter.start() ?? null;
  return helper?.alive ? helper : binary;
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

export interface OverlayLayers {
  lower: string;
  upper: string;
  work: string;
}

/** Characters that would split or escape an option in `-o lowerdir=…,upperdir=…`. */
const UNSAFE_OPTION_CHARS = /[,:\\\s]/;

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

export async function mountOverlay(layers: OverlayLayers, target: string): Promise<void> {
  for (const path of [layers.lower, layers.upper, layers.work]) {
    if (UNSAFE_OPTION_CHARS.test(path))
      throw new MountError(
        target,
        `cannot use ${JSON.stringify(path)} in overlay options: it contains a comma, colon, backslash or ` +
          "space; move the snapshot or its scratch directory to a plainer path",
      );
  }
  const base = `lowerdir=${layers.lower},upperdir=${layers.upper},workdir=${layers.work},${OVERLAY_OPTIONS}`;
  const overlay = (options: string) =>
    call(`mounting an overlay at ${target}`, target, (m) => m.mount("overlay", target, options));
  installExitHandler();
  if (volatileRejected) {
    await overlay(base);
  } else {
    try {
      await overlay(`${base},${VOLATILE}`);
    } catch {
      await overlay(base); // when this fails too, its error is the real problem
      volatileRejected = true;
    }
  }
  live.set(target, "overlay");
}

/** A size-capped tmpfs: a rollout that writes a huge file fills its own tmpfs, not the host's disk. */
export async function mountTmpfs(target: string, sizeBytes: number): Promise<void> {
  installExitHandler();
  await call(`mounting a tmpfs at ${target}`, target, (m) =>
    m.mount("tmpfs", target, `size=${sizeBytes},mode=0755`),
  );
  live.set(target, "tmpfs");
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

/** Remove a directory tree, unmounting anything mounted inside it first so rm never walks into a mount. */
export async function removeTree(dir: string): Promise<void> {
  for (const m of mountsUnder(dir)) await unmount(m.target, { lazy: true });
  await rm(dir, { recursive: true, force: true });
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
      if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
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

const HOME_NAME = new RegExp(`^${HOME_PREFIX}(\\d+)-`);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Clear what killed processes left in `parent`: each of its `acilab-cow-<pid>-…` directories whose
 * owner is no longer running loses its mounts (those inside it, then those it recorded outside it)
 * and is removed. Other directories, and live owners' ones, are never touched. Returns the mount
 * points it detached.
 */
export async function sweepStaleWorkspaces(parent: string = tmpdir()): Promise<string[]> {
  let names: string[];
  try {
    parent = realpathSync(parent);
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const swept: string[] = [];
  const detach = async (target: string) => {
    try {
      await pick().unmount(target, true);
      swept.push(target);
    } catch {
      // already gone (another process swept first)
    }
  };
  for (const name of names) {
    const pid = Number(HOME_NAME.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || pid === process.pid || isAlive(pid)) continue;
    const dir = join(parent, name);
    for (const m of mountsUnder(dir)) await detach(m.target);
    const mounted = new Set(readMountInfo().map((m) => m.target));
    for (const target of readLines(join(dir, EXTERNAL_MOUNTS_FILE)))
      if (mounted.has(target)) await detach(target);
    if (mountsUnder(dir).length === 0) await rm(dir, { recursive: true, force: true });
  }
  return swept;
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "");
  } catch {
    return [];
  }
}
