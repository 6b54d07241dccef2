/**
 * Every cap of the search index (the tools' own caps are in limits.ts), with the reason for the
 * number and what happens at the limit. At every limit the index steps aside and the tools run rg
 * exactly as they do without it: a limit costs speed, never correctness.
 */

/**
 * Files are packed into buffers of this size: one `indexOf` call then scans hundreds of files, and the
 * watcher thread hands over a few large buffers instead of 100,000 small ones.
 */
export const INDEX_SEGMENT_BYTES = 4 * 1024 * 1024;

/**
 * Larger files are not kept in memory. rg searches files of any size, so they are still searched: read
 * from disk by each query that needs them (see MAX_ON_DEMAND_BYTES). 1 MiB keeps a data file or a
 * bundle from dominating memory while nearly every source file fits.
 */
export const MAX_STORED_FILE_BYTES = 1024 * 1024;

/**
 * Most file bytes one workspace may keep. A typical repository's text is tens of megabytes; past this
 * one the content index is not built and grep, search_dir and search_file use rg alone.
 */
export const MAX_INDEX_BYTES = 256 * 1024 * 1024;

/** Workspaces indexed at once; the least recently searched is released first (runs share a process). */
export const MAX_INDEXED_WORKSPACES = 4;

/** An index nobody searched for this long is released, so a finished run does not pin memory. */
export const INDEX_IDLE_RELEASE_MS = 10 * 60 * 1000;

/**
 * Directories watched per workspace. Each costs an inotify watch, a per-user kernel resource (8,192 on
 * older kernels) the sandboxed programs may need too; a tree with more is not indexed.
 */
export const MAX_WATCHED_DIRS = 20_000;

/**
 * A burst of events this large relative to the kernel's queue (max_queued_events) may hide an
 * overflow, after which the index is dropped; see watch-worker.ts for the reasoning.
 */
export const OVERFLOW_SUSPECT_FRACTION = 4;

/** Files the watcher thread reads per turn of its event loop: ~10 ms here, so events keep flowing. */
export const INDEX_READ_CHUNK_FILES = 256;

/**
 * Changed or new files a query reads itself before searching. Beyond this (a checkout, a generator)
 * the query uses rg, and the files are re-read in the background.
 */
export const MAX_SYNC_READ_FILES = 2_000;

/**
 * Bytes of unstored (large) files one query reads from disk. Beyond this the query uses rg.
 */
export const MAX_ON_DEMAND_BYTES = 64 * 1024 * 1024;

/**
 * Bytes of candidate paths handed to rg on its command line. Linux allows 2 MiB for arguments and
 * environment together; a candidate list this long is slower than a plain scan anyway, so beyond it
 * the query uses rg over the tree.
 */
export const MAX_CANDIDATE_ARG_BYTES = 256 * 1024;

/**
 * Bytes of `--glob !/dir/` exclusions a listing refresh may pass (same ARG_MAX reasoning); beyond it
 * the listing is rebuilt from scratch.
 */
export const MAX_EXCLUDE_ARG_BYTES = 256 * 1024;

/**
 * Cached listings per workspace (one per distinct start directory and glob type). Each holds up to one
 * path per file; sixteen covers an agent's working set of directories and file types.
 */
export const MAX_LISTINGS_PER_WORKSPACE = 16;

/**
 * After an index had to be dropped (a possible event overflow, too many directories), the tools use rg
 * for this long before watching the workspace again, so a tree that cannot be indexed is not re-walked
 * on every query.
 */
export const INDEX_RETRY_MS = 5 * 60 * 1000;

/**
 * Longest literal the index answers for without rg. Longer patterns are handed to rg, which also
 * reports the ones too long for a command line exactly as before.
 */
export const MAX_INDEXED_LITERAL_BYTES = 4096;
