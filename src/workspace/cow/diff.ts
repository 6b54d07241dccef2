/**
 * What a rollout changed, as lists of file paths (relative, `/`-separated, sorted). Directories are not
 * listed themselves — a deleted directory shows as its deleted files, like git — and the top-level
 * `.git` is left out: git's own bookkeeping (index, objects) is not the agent's change. What a git
 * patch cannot carry — a FIFO, socket or device, a tree nested too deep for git to open — is listed
 * apart, in `uncarried`, and not walked into. Every read goes through open directories (walk.ts), so a
 * hostile tree can neither fool nor stall nor crash it.
 */
import type { BigIntStats, Dirent } from "node:fs";
import { Dir, withDirs } from "./walk.js";

/** A change in the workspace that a git patch cannot carry, and why. */
export interface Uncarried {
  /** Workspace-relative path (for a directory: everything below it too). */
  path: string;
  why: "not a regular file" | "too deep for a patch";
  /** What it is: "a FIFO", "a socket", "a path over 4095 bytes"… */
  detail: string;
}

export interface WorkspaceDiff {
  added: string[];
  modified: string[];
  deleted: string[];
  uncarried: Uncarried[];
}

/** Compare buffers of this size when two files have the same length. */
const COMPARE_CHUNK_BYTES = 64 * 1024;
const GIT_DIR = ".git";

/** PATH_MAX is 4096 with the NUL: git opens paths relative to the work tree, and the kernel refuses longer. */
export const MAX_PATCH_PATH_BYTES = 4095;
/** Deeper than any source tree (monorepos stop around 30 levels); a walk holds three descriptors a level. */
export const MAX_PATCH_DEPTH = 256;
/** An uncarried path in a message is cut here: a tree made too deep on purpose has paths of megabytes. */
export const MAX_SHOWN_PATH_CHARS = 120;

/** `not a regular file: src/a.py (a FIFO)`. */
export function describeUncarried(u: Uncarried): string {
  const path = u.path.length > MAX_SHOWN_PATH_CHARS ? `${u.path.slice(0, MAX_SHOWN_PATH_CHARS)}…` : u.path;
  return `${u.why}: ${path} (${u.detail})`;
}

type Side = "added" | "deleted";

class Changes {
  readonly added = new Set<string>();
  readonly modified = new Set<string>();
  readonly deleted = new Set<string>();
  private readonly uncarried = new Map<string, Uncarried>();

  uncarry(path: string, why: Uncarried["why"], detail: string): void {
    this.uncarried.set(path, { path, why, detail });
  }

  result(): WorkspaceDiff {
    const sorted = (s: Set<string>) => [...s].sort();
    return {
      added: sorted(this.added),
      modified: sorted(this.modified),
      deleted: sorted(this.deleted),
      uncarried: [...this.uncarried.values()].sort((a, b) =>
        a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
      ),
    };
  }
}

const child = (rel: string, name: string) => (rel === "" ? name : `${rel}/${name}`);

async function entries(dir: Dir, rel: string): Promise<Dirent[]> {
  const list = await dir.list();
  return rel === "" ? list.filter((e) => e.name !== GIT_DIR) : list;
}

/** What a non-regular, non-directory, non-symlink entry is; undefined for those three. */
function special(s: BigIntStats): string | undefined {
  if (s.isFile() || s.isDirectory() || s.isSymbolicLink()) return undefined;
  if (s.isFIFO()) return "a FIFO";
  if (s.isSocket()) return "a socket";
  if (s.isCharacterDevice()) return "a character device";
  if (s.isBlockDevice()) return "a block device";
  return "a file of unknown type";
}

/** Why the agent's entry at `rel` (`depth` components) is out of git's reach, if it is. */
function tooDeep(rel: string, depth: number): string | undefined {
  if (Buffer.byteLength(rel) > MAX_PATCH_PATH_BYTES) return `a path over ${MAX_PATCH_PATH_BYTES} bytes`;
  if (depth > MAX_PATCH_DEPTH) return `nested over ${MAX_PATCH_DEPTH} levels`;
  return undefined;
}

/** Record the agent's entry as uncarried if it is one; true when it was. */
function uncarriable(c: Changes, s: BigIntStats, rel: string, depth: number): boolean {
  const odd = special(s);
  if (odd) c.uncarry(rel, "not a regular file", odd);
  const deep = odd ? undefined : tooDeep(rel, depth);
  if (deep) c.uncarry(rel, "too deep for a patch", deep);
  return odd !== undefined || deep !== undefined;
}

/** Every non-directory at or below `name` in `parent`, into `side` (the agent's side: uncarried apart). */
async function filesUnder(parent: Dir, name: string, rel: string, depth: number, side: Side, c: Changes) {
  const s = await parent.lstat(name);
  if (s === undefined) return;
  if (side === "added" && uncarriable(c, s, rel, depth)) return;
  if (!s.isDirectory()) {
    c[side].add(rel);
    return;
  }
  await withDirs([parent.sub(name)], async ([dir]) => {
    if (dir === undefined) return;
    for (const e of await entries(dir, rel))
      await filesUnder(dir, e.name, child(rel, e.name), depth + 1, side, c);
  });
}

async function sameBytes(a: Dir, b: Dir, name: string): Promise<boolean> {
  const [fa, fb] = await Promise.all([a.file(name), b.file(name)]);
  try {
    if (fa === undefined || fb === undefined) return false; // no longer a regular file: changed
    const ba = Buffer.alloc(COMPARE_CHUNK_BYTES);
    const bb = Buffer.alloc(COMPARE_CHUNK_BYTES);
    for (;;) {
      const [ra, rb] = await Promise.all([fa.read(ba, 0, ba.length), fb.read(bb, 0, bb.length)]);
      if (ra.bytesRead !== rb.bytesRead) return false;
      if (ra.bytesRead === 0) return true;
      if (!ba.subarray(0, ra.bytesRead).equals(bb.subarray(0, rb.bytesRead))) return false;
    }
  } finally {
    await Promise.all([fa?.close(), fb?.close()]);
  }
}

function kindOf(s: BigIntStats): string {
  if (s.isFile()) return "file";
  if (s.isDirectory()) return "dir";
  if (s.isSymbolicLink()) return "link";
  return `special:${s.mode & 0o170000n}:${s.rdev}`;
}

/**
 * Same type, permission bits and content. With `trustTimes`, equal size and mtime count as equal
 * content without reading (git's heuristic; `cp -a` keeps mtimes, and an edit changes them).
 */
async function sameEntry(
  a: Dir,
  sa: BigIntStats,
  b: Dir,
  sb: BigIntStats,
  name: string,
  trustTimes: boolean,
): Promise<boolean> {
  if (kindOf(sa) !== kindOf(sb) || (sa.mode & 0o7777n) !== (sb.mode & 0o7777n)) return false;
  if (sa.isSymbolicLink()) return (await a.readlink(name)) === (await b.readlink(name));
  if (!sa.isFile()) return true;
  if (sa.size !== sb.size) return false;
  if (trustTimes && sa.mtimeNs === sb.mtimeNs) return true;
  return sameBytes(a, b, name);
}

/** An overlay whiteout: a character device with device number 0/0 in the upper layer. */
const isWhiteout = (s: BigIntStats) => s.isCharacterDevice() && s.rdev === 0n;

/**
 * The changes recorded in an overlay's upper layer, read while it is mounted at `merged`. Only the
 * upper layer is walked, so the cost follows the size of the change, not of the repository.
 *
 * - a whiteout (char device 0/0) deletes the lower entry of that name (a directory: all its files);
 * - a directory marked opaque (xattr `trusted.overlay.opaque=y`, left by `rm -r dir && mkdir dir`)
 *   hides every lower entry below it. Node cannot read xattrs, so opacity is read from its effect: a
 *   lower name that is neither in the upper directory nor in the merged listing is gone;
 * - a non-directory in the upper layer is added, or modified if the lower has one that differs
 *   (copy-up also happens on open-for-write or chmod with no change; those are not reported).
 */
export async function diffOverlay(lower: string, upper: string, merged: string): Promise<WorkspaceDiff> {
  const changes = new Changes();
  await withDirs([Dir.open(upper), Dir.open(lower), Dir.open(merged)], ([u, l, m]) =>
    u ? walkUpper(u, l, m, "", 0, changes) : Promise.resolve(),
  );
  return changes.result();
}

async function walkUpper(
  upper: Dir,
  lower: Dir | undefined,
  merged: Dir | undefined,
  rel: string,
  depth: number,
  c: Changes,
): Promise<void> {
  const inUpper = new Set<string>();
  for (const e of await entries(upper, rel)) {
    const path = child(rel, e.name);
    inUpper.add(e.name);
    const [su, sl] = await Promise.all([upper.lstat(e.name), lower?.lstat(e.name)]);
    if (su === undefined) continue;
    if (isWhiteout(su)) {
      if (lower && sl) await filesUnder(lower, e.name, path, depth + 1, "deleted", c);
    } else if (uncarriable(c, su, path, depth + 1)) {
      // listed apart: the patch leaves it out
    } else if (su.isDirectory()) {
      if (sl?.isDirectory()) {
        await withDirs([upper.sub(e.name), lower?.sub(e.name), merged?.sub(e.name)], ([u, l, m]) =>
          u ? walkUpper(u, l, m, path, depth + 1, c) : Promise.resolve(),
        );
      } else {
        if (sl) c.deleted.add(path);
        await filesUnder(upper, e.name, path, depth + 1, "added", c);
      }
    } else if (lower && sl?.isDirectory()) {
      await filesUnder(lower, e.name, path, depth + 1, "deleted", c);
      c.added.add(path);
    } else if (lower === undefined || sl === undefined) {
      c.added.add(path);
    } else if (!(await sameEntry(lower, sl, upper, su, e.name, false))) {
      c.modified.add(path);
    }
  }
  // Opaque directory: lower names missing from both the upper layer and the merged view.
  if (lower === undefined || merged === undefined) return;
  const hidden = (await entries(lower, rel)).filter((e) => !inUpper.has(e.name));
  if (hidden.length === 0) return;
  const visible = new Set((await merged.list()).map((e) => e.name));
  for (const e of hidden)
    if (!visible.has(e.name)) await filesUnder(lower, e.name, child(rel, e.name), depth + 1, "deleted", c);
}

/** The changes between two full trees: the copy fallback's diff. Reads every directory of both. */
export async function diffTrees(lower: string, root: string): Promise<WorkspaceDiff> {
  const changes = new Changes();
  await withDirs([Dir.open(lower), Dir.open(root)], ([l, r]) =>
    l && r ? walkBoth(l, r, "", 0, changes) : Promise.resolve(),
  );
  return changes.result();
}

async function walkBoth(lower: Dir, root: Dir, rel: string, depth: number, c: Changes): Promise<void> {
  const [left, right] = await Promise.all([entries(lower, rel), entries(root, rel)]);
  const rightNames = new Set(right.map((e) => e.name));
  for (const e of left)
    if (!rightNames.has(e.name)) await filesUnder(lower, e.name, child(rel, e.name), depth + 1, "deleted", c);
  const leftNames = new Set(left.map((e) => e.name));
  for (const e of right) {
    const path = child(rel, e.name);
    if (!leftNames.has(e.name)) {
      await filesUnder(root, e.name, path, depth + 1, "added", c);
      continue;
    }
    const [sl, sr] = await Promise.all([lower.lstat(e.name), root.lstat(e.name)]);
    if (sl === undefined || sr === undefined || uncarriable(c, sr, path, depth + 1)) continue;
    if (sl.isDirectory() && sr.isDirectory()) {
      await withDirs([lower.sub(e.name), root.sub(e.name)], ([l, r]) =>
        l && r ? walkBoth(l, r, path, depth + 1, c) : Promise.resolve(),
      );
    } else if (sl.isDirectory() || sr.isDirectory()) {
      await filesUnder(lower, e.name, path, depth + 1, "deleted", c);
      await filesUnder(root, e.name, path, depth + 1, "added", c);
    } else if (!(await sameEntry(lower, sl, root, sr, e.name, true))) {
      c.modified.add(path);
    }
  }
}
