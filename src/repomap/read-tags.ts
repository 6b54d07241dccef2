/**
 * Tags for a list of files, through the cache: a file whose size and mtime are unchanged is not read
 * again. Files are read the way the file tools read them (openInside: no symbolic link followed, the
 * real path checked to be inside the root), since the tree may be an agent's and hostile.
 */
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink } from "node:fs/promises";
import { join } from "node:path";
import { codeLanguageOf } from "../syntax/index.js";
import { isWithin, openInside } from "../workspace/index.js";
import type { TagsCache } from "./cache.js";
import { type FileTags, tagsOf } from "./tags.js";

/** Bigger source files are generated or vendored; parsing one would cost more than the map is worth. */
export const MAX_SOURCE_BYTES = 1024 * 1024;
/** Files stat'ed or read at once: enough to hide the disk's latency, few enough to spare descriptors. */
const CONCURRENCY = 32;

export interface ReadTags {
  tags: FileTags[];
  /** Listed but not mapped: no parser for the language, too big, a link, unreadable, or unparseable. */
  skipped: number;
  /** Files parsed by this call (a warm cache parses none). */
  parsed: number;
}

type Outcome = { tags: FileTags } | { skipped: true };

export async function readTags(root: string, files: readonly string[], cache: TagsCache): Promise<ReadTags> {
  let parsed = 0;
  const outcomes: Outcome[] = new Array(files.length);
  const one = async (path: string): Promise<Outcome> => {
    if (!codeLanguageOf(path)) return { skipped: true };
    let stat: import("node:fs").Stats;
    try {
      stat = await lstat(join(root, path));
    } catch {
      return { skipped: true };
    }
    // A link may point anywhere, outside the root included; its target, if inside, is listed itself.
    if (!stat.isFile() || stat.size > MAX_SOURCE_BYTES) return { skipped: true };
    const cached = cache.get(path, stat.size, stat.mtimeMs);
    if (cached !== undefined) return cached ? { tags: cached } : { skipped: true };
    const read = await readInside(root, path);
    if (!read) return { skipped: true };
    parsed++;
    let tags: FileTags | undefined;
    try {
      tags = await tagsOf(path, read.text);
    } catch {
      tags = undefined; // a grammar that trips on this text: the file is skipped, the map goes on
    }
    cache.set(path, read.size, read.mtimeMs, tags ?? null);
    return tags ? { tags } : { skipped: true };
  };
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const i = next++;
      outcomes[i] = await one(files[i] as string);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, lane));
  const tags: FileTags[] = [];
  let skipped = 0;
  for (const o of outcomes)
    if ("tags" in o) tags.push(o.tags);
    else skipped++;
  return { tags, skipped, parsed };
}

const HAS_PROC_FD = process.platform === "linux";

/**
 * The file's text with the size and mtime of what was read (the cache key), or undefined when it
 * cannot be read safely. On Linux: opened without following a final link, then read only if the
 * kernel says the open descriptor is inside the root (/proc/self/fd) — so no link anywhere on the
 * way, swapped in or not, leads a read outside. That is openInside's guarantee at a third of its
 * system calls (it also pins the parent directory, which matters for writes); elsewhere, openInside.
 */
async function readInside(
  root: string,
  path: string,
): Promise<{ text: string; size: number; mtimeMs: number } | undefined> {
  let handle: FileHandle;
  try {
    handle = HAS_PROC_FD
      ? await open(join(root, path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
      : await openInside(root, path, constants.O_RDONLY);
  } catch {
    return undefined; // a link, vanished, not permitted, outside the root: not part of the map
  }
  try {
    if (HAS_PROC_FD && !isWithin(root, await readlink(`/proc/self/fd/${handle.fd}`))) return undefined;
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_SOURCE_BYTES) return undefined;
    const text = await handle.readFile({ encoding: "utf8" });
    return { text, size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
