/**
 * Tags per file, kept while the file is unchanged: keyed by path, size and mtime (and TAGS_VERSION,
 * so a new extractor never reads an old one's output). In memory for the process; optionally also one
 * JSON file on disk, written whole to a temporary name and renamed, so a crash never leaves half a cache.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FileTags } from "./tags.js";

/** Bump when tags.ts or definitions.ts would read the same file differently. */
export const TAGS_VERSION = 1;

interface Entry {
  size: number;
  mtimeMs: number;
  /** null: the file was read and yields nothing (its parse failed); not worth trying again until it changes. */
  tags: FileTags | null;
}

interface CacheFile {
  version: number;
  entries: Record<string, Entry>;
}

export class TagsCache {
  private entries = new Map<string, Entry>();
  private dirty = false;
  /** Bumped on every change, so what was computed from these tags (a ranking) knows when it is stale. */
  generation = 0;

  /** `file`: the JSON file to load from (if present and of this version) and save to; absent = memory only. */
  constructor(readonly file?: string) {
    if (file) this.load(file);
  }

  /** The cached tags when `path` still has this size and mtime; undefined on a miss. */
  get(path: string, size: number, mtimeMs: number): FileTags | null | undefined {
    const entry = this.entries.get(path);
    return entry && entry.size === size && entry.mtimeMs === mtimeMs ? entry.tags : undefined;
  }

  set(path: string, size: number, mtimeMs: number, tags: FileTags | null): void {
    this.entries.set(path, { size, mtimeMs, tags });
    this.dirty = true;
    this.generation++;
  }

  /** Forget every path not in `keep` (deleted or renamed files), so the cache tracks the tree. */
  retain(keep: ReadonlySet<string>): void {
    for (const path of [...this.entries.keys()])
      if (!keep.has(path)) {
        this.entries.delete(path);
        this.dirty = true;
        this.generation++;
      }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Write the file when something changed since it was loaded or last saved. */
  save(): void {
    if (!this.file || !this.dirty) return;
    const data: CacheFile = { version: TAGS_VERSION, entries: Object.fromEntries(this.entries) };
    const temporary = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, JSON.stringify(data));
    renameSync(temporary, this.file);
    this.dirty = false;
  }

  private load(file: string): void {
    let data: CacheFile;
    try {
      data = JSON.parse(readFileSync(file, "utf8")) as CacheFile;
    } catch {
      return; // missing or unreadable: start empty, the next save replaces it
    }
    if (data?.version !== TAGS_VERSION || typeof data.entries !== "object" || data.entries === null) return;
    for (const [path, entry] of Object.entries(data.entries))
      if (typeof entry?.size === "number" && typeof entry.mtimeMs === "number") this.entries.set(path, entry);
  }
}

/** The cache file for `root` in `cacheDir`: one per repository, named by a hash of its path. */
export function cacheFileFor(cacheDir: string, root: string): string {
  mkdirSync(cacheDir, { recursive: true });
  const id = createHash("sha256").update(root).digest("hex").slice(0, 16);
  return join(cacheDir, `repomap-${id}.json`);
}

/**
 * Repositories whose tags the process keeps in memory. An experiment maps a fresh checkout per
 * attempt; without a bound, every one of them would stay (a few MB each) for the process's life.
 */
export const MAX_SHARED_CACHES = 8;

/** One cache per repository (and cache file), the most recently used kept, so a second build is warm. */
const SHARED = new Map<string, TagsCache>();

export function sharedCache(root: string, cacheDir?: string): TagsCache {
  const file = cacheDir ? cacheFileFor(cacheDir, root) : undefined;
  const key = `${root}\0${file ?? ""}`;
  const cache = SHARED.get(key) ?? new TagsCache(file);
  SHARED.delete(key);
  SHARED.set(key, cache); // a Map iterates in insertion order: the first key is the least recently used
  if (SHARED.size > MAX_SHARED_CACHES) SHARED.delete(SHARED.keys().next().value as string);
  return cache;
}
