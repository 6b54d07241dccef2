/**
 * Tags for a list of files, through the cache: a file whose size and mtime are unchanged is not read
 * again. The tree may be an agent's and hostile: links are skipped, and a file is read only when the
 * kernel confirms the opened file is inside the root (readInside).
 */
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink } from "node:fs/promises";
import { join } from "node:path";
import { codeLanguageOf } from "../syntax/index.js";
import { isWithin, openInside } from "../workspace/index.js";
import type { TagsCache } from "./cache.js";
import { defaultWorkers, ParsePool, POOL_MIN_FILES } from "./parse-pool.js";
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

export interface ReadTagsOptions {
  /** Parse on this many worker threads when there are at least POOL_MIN_FILES to parse; 0 = this thread only. */
  workers?: number;
}

/** What one listed file came to: tags (cached or fresh), skipped, or to be parsed. */
type Slot = { tags: FileTags } | { skipped: true } | { parse: true; size: number; mtimeMs: number };

export async function readTags(
  root: string,
  files: readonly string[],
  cache: TagsCache,
  options: ReadTagsOptions = {},
): Promise<ReadTags> {
  // First every file's stat against the cache, so the parse step knows how much work it has.
  const slots = await eachLimited(files, async (path): Promise<Slot> => {
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
    if (cached === undefined) return { parse: true, size: stat.size, mtimeMs: stat.mtimeMs };
    return cached ? { tags: cached } : { skipped: true };
  });
  const misses = slots.filter((s) => "parse" in s).length;
  const workers = options.workers ?? defaultWorkers();
  const pool = workers > 0 && misses >= POOL_MIN_FILES ? new ParsePool(workers) : undefined;
  let parsed = 0;
  try {
    const done = await eachLimited(files, async (path, i): Promise<Slot> => {
      const slot = slots[i] as Slot;
      if (!("parse" in slot)) return slot;
      const read = await readInside(root, path);
      if (!read) return { skipped: true };
      parsed++;
      let tags: FileTags | undefined;
      try {
        tags = pool ? await pool.tags(path, read.text) : await tagsOf(path, read.text);
      } catch {
        tags = undefined; // a grammar that trips on this text: the file is skipped, the map goes on
      }
      cache.set(path, read.size, read.mtimeMs, tags ?? null);
      return tags ? { tags } : { skipped: true };
    });
    const tags = done.flatMap((s) => ("tags" in s ? [s.tags] : []));
    return { tags, skipped: done.length - tags.length, parsed };
  } finally {
    await pool?.close();
  }
}

/** `fn` over `items`, CONCURRENCY at a time, results in the items' order. */
async function eachLimited<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, lane));
  return results;
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
