/** Messages between the search index (main thread) and its watcher thread (watch-worker.ts). */

export interface WatchWorkerData {
  /** Watch at most this many directories per workspace; past it the workspace is not indexed. */
  maxDirs: number;
  /** Files read per turn of the watcher's event loop while building, so events keep flowing. */
  readChunkFiles: number;
  /** A batch of at least this many events may hide a kernel queue overflow (see watch-worker.ts). */
  overflowSuspectEvents: number;
}

export type WatchRequest =
  | { op: "watch"; id: number; root: string }
  | { op: "sync"; id: number; root: string }
  | {
      op: "read";
      id: number;
      root: string;
      paths: string[];
      segmentBytes: number;
      maxFileBytes: number;
      maxTotalBytes: number;
    }
  | { op: "unwatch"; id: number; root: string }
  /**
   * Answer at once, then block the thread for `ms`, as a long callback would: lets a test pile up
   * events in the kernel queue to check that an overflowing burst is noticed.
   */
  | { op: "stall"; id: number; ms: number };

/** What changed below a workspace since the previous sync. Paths are workspace-relative. */
export interface WatchChanges {
  /** `dir\0name`: an entry of `dir` was created, deleted, renamed or had its metadata changed. */
  structural: string[];
  /** Directories whose ignore rules may have changed ("" also for everything above the workspace). */
  ignore: string[];
  /** Files whose content or metadata changed in place. */
  content: string[];
  /** Set when the watch can no longer vouch for the workspace; the index must be dropped. */
  failed?: string;
}

/** Per-file flags from a read. */
export const FILE_HAS_NUL = 1;
export const FILE_UTF16_BOM = 2;
/** Larger than the per-file cap: not stored, read from disk when a query needs it. */
export const FILE_UNSTORED = 4;
export const FILE_UNREADABLE = 8;

export interface ReadResult {
  segments: ArrayBuffer[];
  /** Per requested path, in request order: segment index, byte offset, byte length, flags. */
  seg: Int32Array;
  start: Int32Array;
  length: Int32Array;
  flags: Uint8Array;
}

export type WatchResponse =
  | ({ id: number; ok: true } & Partial<WatchChanges> & { read?: ReadResult })
  | { id: number; ok: false; reason: string };
