/**
 * What a rollout changed, as lists of file paths (relative, `/`-separated, sorted). Directories are not
 * listed themselves — a deleted directory shows as its deleted files, like git — and the top-level
 * `.git` is left out: git's own bookkeeping (index, objects) is not the agent's change.
 */
import type { BigIntStats, Dirent } from "node:fs";
import { lstat, open, readdir, readlink } from "node:fs/promises";
import { join } from "node:path";

export interface WorkspaceDiff {
  added: string[];
  modified: string[];
  deleted: string[];
}

/** Compare buffers of this size when two files have the same length. */
const COMPARE_CHUNK_BYTES = 64 * 1024;
const GIT_DIR = ".git";

class Changes {
  readonly added = new Set<string>();
  readonly modified = new Set<string>();
  readonly deleted = new Set<string>();

  result(): WorkspaceDiff {
    const sorted = (s: Set<string>) => [...s].sort();
    return { added: sorted(this.added), modified: sorted(this.modified), deleted: sorted(this.deleted) };
  }
}

const child = (rel: string, name: string) => (rel === "" ? name : `${rel}/${name}`);

async function statOrUndefined(path: string): Promise<BigIntStats | undefined> {
  try {
    return await lstat(path, { bigint: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

async function entries(dir: string, rel: string): Promise<Dirent[]> {
  const list = await readdir(join(dir, rel), { withFileTypes: true });
  return rel === "" ? list.filter((e) => e.name !== GIT_DIR) : list;
}

/** Every non-directory below `rel` in `base` (or `rel` itself when it is not a directory). */
async function filesUnder(base: string, rel: string, into: Set<string>): Promise<void> {
  const stat = await statOrUndefined(join(base, rel));
  if (stat === undefined) return;
  if (!stat.isDirectory()) {
    into.add(rel);
    return;
  }
  for (const e of await entries(base, rel)) await filesUnder(base, child(rel, e.name), into);
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [fa, fb] = await Promise.all([open(a, "r"), open(b, "r")]);
  try {
    const ba = Buffer.alloc(COMPARE_CHUNK_BYTES);
    const bb = Buffer.alloc(COMPARE_CHUNK_BYTES);
    for (;;) {
      const [ra, rb] = await Promise.all([fa.read(ba, 0, ba.length), fb.read(bb, 0, bb.length)]);
      if (ra.bytesRead !== rb.bytesRead) return false;
      if (ra.bytesRead === 0) return true;
      if (!ba.subarray(0, ra.bytesRead).equals(bb.subarray(0, rb.bytesRead))) return false;
    }
  } finally {
    await Promise.all([fa.close(), fb.close()]);
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
  a: string,
  sa: BigIntStats,
  b: string,
  sb: BigIntStats,
  trustTimes: boolean,
): Promise<boolean> {
  if (kindOf(sa) !== kindOf(sb) || (sa.mode & 0o7777n) !== (sb.mode & 0o7777n)) return false;
  if (sa.isSymbolicLink()) return (await readlink(a)) === (await readlink(b));
  if (!sa.isFile()) return true;
  if (sa.size !== sb.size) return false;
  if (trustTimes && sa.mtimeNs === sb.mtimeNs) return true;
  return sameBytes(a, b);
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
  await walkUpper(lower, upper, merged, "", changes);
  return changes.result();
}

async function walkUpper(
  lower: string,
  upper: string,
  merged: string,
  rel: string,
  c: Changes,
): Promise<void> {
  const upperEntries = await entries(upper, rel);
  const inUpper = new Set<string>();
  for (const e of upperEntries) {
    const path = child(rel, e.name);
    inUpper.add(e.name);
    const [su, sl] = await Promise.all([
      lstat(join(upper, path), { bigint: true }),
      statOrUndefined(join(lower, path)),
    ]);
    if (isWhiteout(su)) {
      await filesUnder(lower, path, c.deleted);
    } else if (su.isDirectory()) {
      if (sl?.isDirectory()) {
        await walkUpper(lower, upper, merged, path, c);
      } else {
        if (sl) c.deleted.add(path);
        await filesUnder(upper, path, c.added);
      }
    } else if (sl?.isDirectory()) {
      await filesUnder(lower, path, c.deleted);
      c.added.add(path);
    } else if (sl === undefined) {
      c.added.add(path);
    } else if (!(await sameEntry(join(lower, path), sl, join(upper, path), su, false))) {
      c.modified.add(path);
    }
  }
  // Opaque directory: lower names missing from both the upper layer and the merged view.
  const hidden = (await entries(lower, rel)).filter((e) => !inUpper.has(e.name));
  if (hidden.length === 0) return;
  const visible = new Set(await readdir(join(merged, rel)));
  for (const e of hidden) if (!visible.has(e.name)) await filesUnder(lower, child(rel, e.name), c.deleted);
}

/** The changes between two full trees: the copy fallback's diff. Reads every directory of both. */
export async function diffTrees(lower: string, root: string): Promise<WorkspaceDiff> {
  const changes = new Changes();
  await walkBoth(lower, root, "", changes);
  return changes.result();
}

async function walkBoth(lower: string, root: string, rel: string, c: Changes): Promise<void> {
  const [left, right] = await Promise.all([entries(lower, rel), entries(root, rel)]);
  const rightNames = new Set(right.map((e) => e.name));
  for (const e of left) if (!rightNames.has(e.name)) await filesUnder(lower, child(rel, e.name), c.deleted);
  const leftNames = new Set(left.map((e) => e.name));
  for (const e of right) {
    const path = child(rel, e.name);
    if (!leftNames.has(e.name)) {
      await filesUnder(root, path, c.added);
      continue;
    }
    const [sl, sr] = await Promise.all([
      lstat(join(lower, path), { bigint: true }),
      lstat(join(root, path), { bigint: true }),
    ]);
    if (sl.isDirectory() && sr.isDirectory()) {
      await walkBoth(lower, root, path, c);
    } else if (sl.isDirectory() || sr.isDirectory()) {
      await filesUnder(lower, path, c.deleted);
      await filesUnder(root, path, c.added);
    } else if (!(await sameEntry(join(lower, path), sl, join(root, path), sr, true))) {
      c.modified.add(path);
    }
  }
}
