import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { posix } from "node:path";
import { identityFiles } from "./argv.js";

/**
 * The sandbox's /etc: the allowlisted host entries copied into one directory, plus our own passwd and
 * group, bound with a single mount. One bind instead of one per entry: measured here, ~30 separate
 * binds cost as much as the rest of bwrap's setup together. The copy is content-addressed (paths,
 * sizes, mtimes), so every acilab process with the same /etc shares one, and a changed /etc gets a
 * new one. Only what any user may read is copied: ssl/private and the like never leave the host.
 */

/** Bump when the layout of the directory changes, so old copies are not reused. */
const FORMAT = 1;
/** Copies older than this that no longer match /etc are removed when a new one is made. */
const STALE_MS = 24 * 3600 * 1000;
const PREFIX = "acilab-etc-";

const readableByAll = (mode: number) => (mode & 0o004) !== 0;
const searchableByAll = (mode: number) => (mode & 0o005) === 0o005;

/** Walk an entry the way the copy will, yielding one line per entry for the content hash. */
function describe(src: string, rel: string, out: string[]): void {
  const st = lstatSync(src);
  if (st.isSymbolicLink()) out.push(`${rel}\tl\t${readlinkSync(src)}`);
  else if (st.isDirectory()) {
    if (!searchableByAll(st.mode)) return;
    out.push(`${rel}\td\t${st.mode & 0o755}`);
    for (const name of readdirSync(src).sort()) describe(posix.join(src, name), posix.join(rel, name), out);
  } else if (st.isFile() && readableByAll(st.mode))
    out.push(`${rel}\tf\t${st.size}\t${st.mtimeMs}\t${st.mode & 0o755}`);
}

function copy(src: string, dst: string): void {
  const st = lstatSync(src);
  if (st.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
  else if (st.isDirectory()) {
    if (!searchableByAll(st.mode)) return;
    mkdirSync(dst);
    for (const name of readdirSync(src)) copy(posix.join(src, name), posix.join(dst, name));
    chmodSync(dst, st.mode & 0o755);
  } else if (st.isFile() && readableByAll(st.mode)) {
    copyFileSync(src, dst);
    chmodSync(dst, st.mode & 0o755);
  }
}

/** A directory we made, that nobody else can write to: safe to hand to sandboxes as their /etc. */
function trustworthy(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === (process.getuid?.() ?? 0) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

let prepared: string | undefined;

/**
 * Build (or reuse) the sandbox /etc for these host entries; returns its path. Built once per process,
 * but the cached copy is checked first (one lstat): one that disappeared is made again.
 */
export function prepareEtc(entries: string[], parent = tmpdir()): string {
  if (prepared && trustworthy(prepared)) return prepared;
  const ids = identityFiles();
  const lines = [`format ${FORMAT}`, ids.passwd, ids.group];
  for (const entry of entries) describe(entry, posix.basename(entry), lines);
  const hash = createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);
  const shared = posix.join(parent, `${PREFIX}${process.getuid?.() ?? 0}-${hash}`);
  if (trustworthy(shared)) return remember(shared);
  // Someone else's directory under our name is never trusted: build a private copy instead.
  const squatted = lstatExists(shared);
  const building = squatted ? mkdtempSync(`${shared}-`) : `${shared}.${process.pid}.tmp`;
  if (!squatted) {
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building);
  }
  for (const entry of entries) copy(entry, posix.join(building, posix.basename(entry)));
  writeFileSync(posix.join(building, "passwd"), ids.passwd, { mode: 0o644 });
  writeFileSync(posix.join(building, "group"), ids.group, { mode: 0o644 });
  chmodSync(building, 0o755);
  if (squatted) return remember(building);
  try {
    renameSync(building, shared);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another process finished first
    if (!trustworthy(shared)) throw new Error(`sandbox: could not prepare the sandbox /etc at ${shared}`);
  }
  sweepStale(parent, shared);
  return remember(shared);
}

function remember(dir: string): string {
  prepared = dir;
  return dir;
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function sweepStale(parent: string, keep: string): void {
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(PREFIX)) continue;
    const path = posix.join(parent, name);
    if (path === keep || !trustworthy(path)) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone already
    }
  }
}
