import { ContentStore, type ScanResult, type Universe } from "./content-store.js";
import {
  INDEX_IDLE_RELEASE_MS,
  INDEX_RETRY_MS,
  INDEX_SEGMENT_BYTES,
  MAX_INDEX_BYTES,
  MAX_INDEXED_WORKSPACES,
  MAX_LISTINGS_PER_WORKSPACE,
  MAX_STORED_FILE_BYTES,
  MAX_SYNC_READ_FILES,
} from "./index-limits.js";
import { Listing, type ListingRunner } from "./listing.js";
import { watchClient } from "./watch-client.js";

/** How often the index answered, and how often it stepped aside; read by tests and the bench. */
export const indexStats = { listings: 0, scans: 0, declined: 0 };

/** One rg command's file selection: file-type flags and the start path (`.` or `./rel`). */
export interface Selection {
  flags: readonly string[];
  start: string;
  startArg: string;
}

/**
 * Everything the search tools know about one workspace: the watch (in the watcher thread), the cached
 * `rg --files` listings, and the file contents. Every answer comes after a sync with the watcher, so
 * it reflects every change made before the query began; whenever the index cannot vouch for an
 * answer it returns undefined and the tool runs rg as usual.
 */
export class WorkspaceIndex {
  failed: string | undefined;
  failedAt = 0;
  private watched = false;
  private readonly watching: Promise<boolean>;
  private readonly listings = new Map<string, Listing>();
  private store: ContentStore | undefined;
  private content: "idle" | "building" | "ready" | "off" = "idle";
  private contentBuilt: Promise<void> | undefined;
  /** Changes reported while a background read is in flight; its result is corrected with them. */
  private inFlight: { files: Set<string>; trees: Set<string> } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  constructor(readonly root: string) {
    this.watching = watchClient.request({ op: "watch", root }).then((r) => {
      if (r.ok) this.watched = true;
      else this.fail(r.reason);
      return r.ok;
    });
  }

  /** The paths of a listing, or undefined when the caller should run rg itself. */
  async files(runner: ListingRunner, selection: Selection): Promise<readonly string[] | undefined> {
    this.touch();
    if (!this.watched) return undefined;
    const paths = await this.exclusive(async () =>
      (await this.sync()) ? (await this.listing(runner, selection))?.paths() : undefined,
    );
    indexStats[paths === undefined ? "declined" : "listings"] += 1;
    return paths;
  }

  /** Which files of a listing (kept by `keep`) contain the literals; undefined: run rg instead. */
  async scan(
    runner: ListingRunner,
    selection: Selection,
    keep: ((path: string) => boolean) | undefined,
    literals: Buffer[],
    count: boolean,
  ): Promise<ScanResult | undefined> {
    this.touch();
    if (this.watched && this.content === "idle") this.contentBuilt = this.buildContent(runner);
    const result =
      this.content !== "ready"
        ? undefined
        : await this.exclusive(async () => {
            const store = (await this.sync()) ? this.store : undefined;
            const listing = store && (await this.listing(runner, selection));
            if (store === undefined || listing === undefined) return undefined;
            const unverified = listing.takeUnverified();
            const missing = unverified.filter((p) => !store.has(p));
            if (missing.length > MAX_SYNC_READ_FILES) {
              listing.restoreUnverified(unverified);
              if (this.inFlight === undefined) void this.readInBackground(missing, store);
              return undefined;
            }
            for (const path of missing) store.readNow(path);
            if (store.bytes > MAX_INDEX_BYTES) {
              // Churn left too many stale copies behind: start over from the files as they are now.
              this.store = undefined;
              this.content = "idle";
              return undefined;
            }
            const universe: Universe = {
              key: listing,
              version: listing.version,
              changedSince: (v) => listing.changedSince(v),
              has: (p) => listing.has(p),
              ...(keep !== undefined && { keep }),
            };
            return store.scan(literals, universe, count);
          });
    indexStats[result === undefined || result.kind === "unsure" ? "declined" : "scans"] += 1;
    return result;
  }

  /** Resolves once the watch is up and the content index is built (or known to be unavailable). */
  async prime(runner: ListingRunner): Promise<boolean> {
    if (!(await this.watching)) return false;
    if (this.content === "idle") this.contentBuilt = this.buildContent(runner);
    await this.contentBuilt;
    return this.content === "ready" && this.failed === undefined;
  }

  /** Stop vouching for anything; `unwatch` is false when the watcher thread is gone anyway. */
  fail(reason: string, unwatch = true): void {
    if (this.failed !== undefined) return;
    this.failed = reason;
    this.failedAt = Date.now();
    this.watched = false;
    this.listings.clear();
    this.store = undefined;
    this.content = "off";
    if (this.idle !== undefined) clearTimeout(this.idle);
    if (unwatch) void watchClient.request({ op: "unwatch", root: this.root });
  }

  /** One operation at a time reads and changes the index. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private touch(): void {
    this.idle ??= setTimeout(() => {
      if (indexes.get(this.root) === this) release(this.root);
    }, INDEX_IDLE_RELEASE_MS).unref();
    this.idle.refresh();
  }

  /** Apply everything the watcher saw up to now; false when the index can no longer vouch. */
  private async sync(): Promise<boolean> {
    if (this.failed !== undefined) return false;
    const r = await watchClient.request({ op: "sync", root: this.root });
    if (!r.ok || r.failed !== undefined) {
      this.fail(r.ok ? (r.failed as string) : r.reason);
      return false;
    }
    for (const entry of r.structural ?? []) {
      const cut = entry.indexOf("\0");
      const dir = entry.slice(0, cut);
      const name = entry.slice(cut + 1);
      const child = dir === "" ? name : `${dir}/${name}`;
      for (const listing of this.listings.values()) {
        listing.noteEntry(dir, name);
        listing.markUnverified(child, true);
      }
      this.store?.dropTree(child);
      this.inFlight?.trees.add(child);
    }
    for (const dir of r.ignore ?? []) for (const listing of this.listings.values()) listing.noteIgnore(dir);
    for (const path of r.content ?? []) {
      for (const listing of this.listings.values()) listing.markUnverified(path, false);
      this.store?.drop(path);
      this.inFlight?.files.add(path);
    }
    return true;
  }

  private async listing(runner: ListingRunner, selection: Selection): Promise<Listing | undefined> {
    const key = JSON.stringify([runner.rgPath, selection.flags, selection.startArg]);
    let listing = this.listings.get(key);
    this.listings.delete(key);
    if (listing !== undefined && !(await listing.refresh(runner))) return undefined;
    listing ??= await Listing.build(runner, selection.flags, selection.start, selection.startArg);
    if (listing === undefined) return undefined;
    this.listings.set(key, listing);
    const oldest = this.listings.keys().next().value;
    if (this.listings.size > MAX_LISTINGS_PER_WORKSPACE && oldest !== undefined) this.listings.delete(oldest);
    return listing;
  }

  private async buildContent(runner: ListingRunner): Promise<void> {
    this.content = "building";
    const root: Selection = { flags: [], start: "", startArg: "." };
    const listing = await this.exclusive(async () =>
      (await this.sync()) ? this.listing(runner, root) : undefined,
    );
    const ok = listing !== undefined && (await this.readInBackground([...listing.paths()], undefined));
    if (this.failed === undefined) this.content = ok ? "ready" : "off";
  }

  /**
   * Read `paths` in the watcher thread (which watches them already, so a later change is reported),
   * then merge into `into` (or a new store). Changes reported meanwhile are replayed on the result.
   */
  private async readInBackground(paths: string[], into: ContentStore | undefined): Promise<boolean> {
    this.inFlight = { files: new Set(), trees: new Set() };
    const r = await watchClient.request({
      op: "read",
      root: this.root,
      paths,
      segmentBytes: INDEX_SEGMENT_BYTES,
      maxFileBytes: MAX_STORED_FILE_BYTES,
      maxTotalBytes: MAX_INDEX_BYTES - (into?.bytes ?? 0),
    });
    return this.exclusive(async () => {
      const synced = await this.sync();
      const changed = this.inFlight;
      this.inFlight = undefined;
      if (!synced || !r.ok || r.read === undefined || changed === undefined) {
        if (!r.ok && this.failed === undefined) {
          // A catch-up read over budget means stale copies piled up: rebuild. A first build over
          // budget means the tree is too large to index.
          this.store = undefined;
          this.content = into === undefined ? "off" : "idle";
        }
        return false;
      }
      const store = into ?? new ContentStore(this.root);
      store.addRead(paths, r.read);
      for (const file of changed.files) store.drop(file);
      for (const tree of changed.trees) store.dropTree(tree);
      if (into === undefined || this.store === into) this.store = store;
      return true;
    });
  }
}

const indexes = new Map<string, WorkspaceIndex>();
watchClient.onLost(() => {
  for (const index of indexes.values()) index.fail("the watcher thread stopped", false);
});

/**
 * The index for `root`, created on first use (its watch starts in the background; until it is up the
 * tools run rg). Least recently used workspaces beyond MAX_INDEXED_WORKSPACES are released. Linux
 * only: the change feed relies on inotify's semantics.
 */
export function workspaceIndex(root: string): WorkspaceIndex | undefined {
  if (process.platform !== "linux") return undefined;
  let index = indexes.get(root);
  if (index?.failed !== undefined) {
    if (Date.now() - index.failedAt < INDEX_RETRY_MS) return undefined;
    index = undefined;
  }
  index ??= new WorkspaceIndex(root);
  indexes.delete(root);
  indexes.set(root, index);
  for (const [oldest] of indexes) {
    if (indexes.size <= MAX_INDEXED_WORKSPACES) break;
    release(oldest);
  }
  return index;
}

function release(root: string): void {
  indexes.get(root)?.fail("released");
  indexes.delete(root);
  if (indexes.size === 0) void watchClient.stop();
}

/** Drop the index of one workspace (when its run ends); the next search there starts a new one. */
export function releaseSearchIndex(root: string): void {
  release(root);
}

/** Drop every index and stop the watcher thread. */
export async function releaseAllSearchIndexes(): Promise<void> {
  for (const root of [...indexes.keys()]) release(root);
  await watchClient.stop();
}
