import type { ToolResult } from "../types.js";
import { indexedPaths, indexedPlan } from "./indexed-search.js";
import { RG_MAX_COLUMNS, type SearchOptions } from "./limits.js";
import { type RecordShape, RG_BASE_ARGS, type RgOutcome, runRg } from "./rg.js";

/** What one search needs to run rg: the tool's settings, the workspace and the caller's signal. */
export interface SearchRun {
  options: SearchOptions;
  root: string;
  signal?: AbortSignal | undefined;
  /** How observations name the query, e.g. `regex "foo("`. */
  query: string;
  /** Concrete ways to narrow this tool's query, finishing "Narrow the search: …". */
  narrowing: string;
}

/**
 * rg's options and arguments, split so the counting pass can reuse them: `flags` are mode-independent
 * (`-F`, `-i`, type filters), `tail` is `["--", pattern?, ...paths]`.
 */
export interface RgQuery {
  flags: string[];
  tail: string[];
}

/** Which paths rg prints are results. `rgExact`: rg's own filters already select exactly these. */
export interface PathFilter {
  keep: (path: string) => boolean;
  rgExact: boolean;
}

export const EVERY_PATH: PathFilter = { keep: () => true, rgExact: true };

export interface LineHit {
  path: string;
  line: number;
  text: string;
}

export interface FileCount {
  path: string;
  count: number;
}

export type Collected<T> =
  | { kind: "ok"; items: T[]; notes: string[] }
  | { kind: "too_many"; total: number; files: number; lowerBound: boolean }
  | { kind: "failed"; result: ToolResult };

const WITH_PATHS = ["--null", "--with-filename", "--no-heading"];

/**
 * Matching lines, or their exact count when there are more than `maxResults`. The first pass prints
 * lines and is stopped at `maxResults` + 1; only then does a second pass count, so the usual case
 * (few matches) costs one scan and a flood costs two, never the flood itself.
 */
export async function collectLines(
  run: SearchRun,
  fullQuery: RgQuery,
  filter: PathFilter,
): Promise<Collected<LineHit>> {
  const plan = await indexedPlan(
    run,
    fullQuery,
    filter.keep === EVERY_PATH.keep ? undefined : filter.keep,
    "lines",
  );
  if (plan?.kind === "too_many") return { ...plan, lowerBound: false };
  if (plan?.kind === "none") return { kind: "ok", items: [], notes: [] };
  const query = plan?.query ?? fullQuery;
  const hits: LineHit[] = [];
  const lineArgs = ["--line-number", "--max-columns", String(RG_MAX_COLUMNS), "--max-columns-preview"];
  const args = [...query.flags, ...WITH_PATHS, ...lineArgs];
  const first = await rg(run, "path+rest", args, query.tail, (path, rest) => {
    if (!filter.keep(path)) return true;
    const colon = rest.indexOf(":");
    hits.push({ path, line: Number(rest.slice(0, colon)), text: rest.slice(colon + 1) });
    return hits.length <= run.options.maxResults;
  });
  if (first.kind === "stopped" || first.kind === "output_cap") return countAll(run, query, filter, "lines");
  return finish(run, first, hits);
}

/** Per-file counts of matching lines (`rg --count`), or the totals when more than `maxResults` files match. */
export async function collectCounts(run: SearchRun, fullQuery: RgQuery): Promise<Collected<FileCount>> {
  const plan = await indexedPlan(run, fullQuery, undefined, "files");
  if (plan?.kind === "too_many") return { ...plan, lowerBound: false };
  if (plan?.kind === "none") return { kind: "ok", items: [], notes: [] };
  const query = plan?.query ?? fullQuery;
  const files: FileCount[] = [];
  const args = [...query.flags, ...WITH_PATHS, "--count"];
  const first = await rg(run, "path+rest", args, query.tail, (path, rest) => {
    files.push({ path, count: Number(rest) });
    return files.length <= run.options.maxResults;
  });
  if (first.kind === "stopped" || first.kind === "output_cap")
    return countAll(run, query, EVERY_PATH, "files");
  return finish(run, first, files);
}

/** File paths from `rg --files` that `filter` keeps; above the cap only counted, never stored. */
export async function collectFiles(
  run: SearchRun,
  query: RgQuery,
  filter: PathFilter,
): Promise<Collected<string>> {
  const kept: string[] = [];
  let files = 0;
  const onPath = (path: string) => {
    if (!filter.keep(path)) return true;
    files += 1;
    if (kept.length <= run.options.maxResults) kept.push(path);
    return true;
  };
  // From the index when it can vouch for the listing: the same paths rg would print, replayed.
  const cached = await indexedPaths(run, query);
  for (const path of cached ?? []) onPath(path);
  // rg writes the listing in large blocks, so streaming every path is cheap; no second pass needed.
  const outcome: RgOutcome =
    cached === undefined
      ? await rg(run, "path", [...query.flags, "--files", "--null"], query.tail, onPath)
      : { kind: "exited", code: cached.length > 0 ? 0 : 1, stderr: "", notes: [] };
  const counted = outcome.kind === "exited" || outcome.kind === "output_cap";
  if (counted && (files > run.options.maxResults || outcome.kind === "output_cap")) {
    return { kind: "too_many", total: files, files, lowerBound: outcome.kind === "output_cap" };
  }
  return finish(run, outcome, kept);
}

/**
 * Count every matching line and file. When rg's filters are exact, `--quiet --stats` makes rg count
 * without printing a record per file (with --stats, --quiet does not stop at the first match); that
 * halves the time on a large tree, where a write per file to our pipe costs as much as the search.
 * Otherwise each file's count is streamed through our filter and only added up.
 */
async function countAll(
  run: SearchRun,
  query: RgQuery,
  filter: PathFilter,
  cappedBy: "lines" | "files",
): Promise<Collected<never>> {
  let total = 0;
  let files = 0;
  const outcome = filter.rgExact
    ? await rg(run, "lines", [...query.flags, "--quiet", "--stats"], query.tail, (line) => {
        const stat = /^(\d+) (matched lines|files contained matches)$/.exec(line);
        if (stat?.[2] === "matched lines") total = Number(stat[1]);
        if (stat?.[2] === "files contained matches") files = Number(stat[1]);
        return true;
      })
    : await rg(run, "path+rest", [...query.flags, ...WITH_PATHS, "--count"], query.tail, (path, rest) => {
        if (!filter.keep(path)) return true;
        files += 1;
        total += Number(rest);
        return true;
      });
  if (outcome.kind !== "exited" && outcome.kind !== "output_cap") return finish(run, outcome, []);
  if ((cappedBy === "lines" ? total : files) <= run.options.maxResults) {
    return {
      kind: "failed",
      result: {
        output: `The matches for ${run.query} could not be listed or counted consistently (a line was too long for rg's output, or files changed while counting). Narrow the search: ${run.narrowing}.`,
        error: "command_failed",
      },
    };
  }
  return { kind: "too_many", total, files, lowerBound: outcome.kind === "output_cap" };
}

function rg(
  run: SearchRun,
  shape: RecordShape,
  args: string[],
  tail: string[],
  onRecord: (path: string, rest: string) => boolean,
): Promise<RgOutcome> {
  return runRg({
    rgPath: run.options.rgPath,
    cwd: run.root,
    args: [...RG_BASE_ARGS, ...args, ...tail],
    shape,
    timeoutMs: run.options.timeoutMs,
    signal: run.signal,
    onRecord,
  });
}

/** Turn an outcome that is not "over the cap" into the items or a failure observation. */
function finish<T>(run: SearchRun, outcome: RgOutcome, items: T[]): Collected<T> {
  switch (outcome.kind) {
    case "exited": {
      const notes = [...outcome.notes];
      if (outcome.code === 2 && outcome.stderr !== "") {
        if (items.length === 0) return { kind: "failed", result: rgError(run, outcome.stderr) };
        // rg found matches but could not read some files (permissions, a vanished file): say so.
        notes.push(`rg could not read everything: ${outcome.stderr.split("\n")[0] ?? ""}`);
      }
      return { kind: "ok", items, notes };
    }
    case "stopped":
    case "output_cap":
      return { kind: "ok", items, notes: outcome.notes };
    case "timeout":
      return {
        kind: "failed",
        result: {
          output: `The search for ${run.query} took longer than ${run.options.timeoutMs} ms and was stopped. Narrow the search: ${run.narrowing}.`,
          error: "timeout",
        },
      };
    case "aborted":
      // Cancellation is the loop's decision, not something the model can act on.
      throw new Error("search cancelled");
    case "missing":
      return {
        kind: "failed",
        result: {
          output: `The search tools need ripgrep (rg), and "${run.options.rgPath}" was not found on this machine. Install it with "apt-get install ripgrep" (running "make" in the acilab checkout bootstraps it); until then, search with grep or find in the shell.`,
          error: "command_failed",
        },
      };
    case "failed":
      return {
        kind: "failed",
        result: { output: `The search failed: ${outcome.message}`, error: "command_failed" },
      };
  }
}

function rgError(run: SearchRun, stderr: string): ToolResult {
  const quoted = stderr
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
  if (/regex/i.test(stderr)) {
    return {
      output: `Invalid ${run.query}. rg says:\n${quoted}\nEscape characters that are special in a regex with a backslash (\\( \\[ \\{ \\. \\* \\+ \\? \\|), or use search_dir / search_file to search for literal text.`,
      error: "invalid_arguments",
    };
  }
  if (/glob/i.test(stderr)) {
    return { output: `Invalid glob in ${run.query}. rg says:\n${quoted}`, error: "invalid_arguments" };
  }
  return { output: `The search for ${run.query} failed. rg says:\n${quoted}`, error: "command_failed" };
}
