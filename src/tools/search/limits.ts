/**
 * Every cap the search tools apply, with the reason for the number and what happens at the limit.
 * The factory (`createSearchTools`) lets a run override the first three.
 */

/**
 * Most results one call may list. SWE-agent's search commands list at most 50 matches and ask for a
 * narrower query above that: a long list costs context and
 * invites the model to page through every hit instead of thinking. Above the cap we list nothing and
 * say how many matched.
 */
export const MAX_SEARCH_RESULTS = 50;

/**
 * Wall clock for one rg run. A full scan of a 100,000-file tree takes well under a second, so 10 s
 * only trips on a pathological tree or regex; the model is then told to narrow the search.
 */
export const SEARCH_TIMEOUT_MS = 10_000;

/** Characters of a matching line shown; the rest is cut with a marker (a minified file is one line). */
export const MAX_LINE_CHARS = 300;

/**
 * Bytes of a matching line rg itself prints (`--max-columns`, with a preview of the start). 300
 * characters take at most 1,200 bytes of UTF-8, so every line we show in full arrives whole, and a
 * megabyte-long line costs us 1.5 KB instead of a megabyte.
 */
export const RG_MAX_COLUMNS = 1_500;

/**
 * Bytes of rg output read per run. We keep only the first results and count the rest, so memory does
 * not grow with the stream; this bounds the work instead. 32 MiB is about 800,000 paths: past it we stop
 * and report the count as a lower bound.
 */
export const MAX_RG_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * Largest single record (path plus line) we buffer. A record is at most a 4 KiB path plus
 * RG_MAX_COLUMNS bytes, so anything near this is not rg output we understand; we stop rather than grow.
 */
export const MAX_RG_RECORD_BYTES = 1024 * 1024;

/** Characters of rg's stderr quoted back to the model (a regex error is a few lines). */
export const MAX_RG_STDERR_CHARS = 2_000;

/** The settings each search tool receives from the factory. */
export interface SearchOptions {
  /** Results listed before the call fails with `too_many_results`. */
  maxResults: number;
  /** Per-rg-run wall clock. */
  timeoutMs: number;
  /** The ripgrep binary, looked up on PATH unless absolute. */
  rgPath: string;
  /**
   * Answer from the workspace index (workspace-index.ts) when it can vouch for the answer: the same
   * output as rg, faster. Off: every search runs rg.
   */
  index: boolean;
}

export const DEFAULT_SEARCH_OPTIONS: Readonly<SearchOptions> = {
  maxResults: MAX_SEARCH_RESULTS,
  timeoutMs: SEARCH_TIMEOUT_MS,
  rgPath: "rg",
  index: true,
};

/** Fill in defaults and reject settings that would make every search fail in a confusing way. */
export function resolveSearchOptions(overrides: Partial<SearchOptions> = {}): SearchOptions {
  const options = { ...DEFAULT_SEARCH_OPTIONS, ...overrides };
  if (!Number.isInteger(options.maxResults) || options.maxResults < 1) {
    throw new RangeError(`search maxResults must be a positive integer, got ${options.maxResults}`);
  }
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new RangeError(`search timeoutMs must be a positive number, got ${options.timeoutMs}`);
  }
  return options;
}
