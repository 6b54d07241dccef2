/**
 * The index as a cache for the rg commands the tools run: given the command a tool is about to run,
 * answer it from memory, or narrow it to the files that can match, or return undefined to run it as
 * is. Only commands whose meaning the index fully models are answered; everything else goes to rg.
 */
import type { RgQuery, SearchRun } from "./collect.js";
import { MAX_CANDIDATE_ARG_BYTES, MAX_INDEXED_LITERAL_BYTES } from "./index-limits.js";
import type { ListingRunner } from "./listing.js";
import { fixedLiterals, patternLiterals } from "./literals.js";
import { type Selection, workspaceIndex } from "./workspace-index.js";

export type IndexPlan =
  /** Exactly this many matching lines in this many files: more than the cap, so nothing is listed. */
  | { kind: "too_many"; total: number; files: number }
  /** No file can match (the pattern is a plain literal, so rg could not report an error either). */
  | { kind: "none" }
  /** Only these files can match: rg need search nothing else. */
  | { kind: "search"; query: RgQuery };

/**
 * A path stand-in for "no candidates": rg still compiles the pattern, so an invalid regex is reported
 * exactly as before, and it finds nothing in an empty file.
 */
const NO_FILES = "/dev/null";

function runnerOf(run: SearchRun): ListingRunner {
  return { rgPath: run.options.rgPath, root: run.root, timeoutMs: run.options.timeoutMs };
}

/** The start path the tools pass (`.` or `./rel`), as a workspace-relative directory or file. */
function selectionOf(flags: readonly string[], startArg: string | undefined): Selection | undefined {
  if (startArg === undefined) return undefined;
  const start = startArg === "." ? "" : startArg.startsWith("./") ? startArg.slice(2) : undefined;
  if (start === undefined) return undefined;
  // The only file-selection flags the tools pass: a glob handed to rg as a file type.
  if (flags.length % 2 !== 0) return undefined;
  for (let i = 0; i < flags.length; i += 2) {
    if (flags[i] !== "--type-add" && flags[i] !== "--type") return undefined;
  }
  return { flags, start, startArg };
}

/** `rg --files` answered from the index: the listed paths, or undefined to run rg. */
export async function indexedPaths(run: SearchRun, query: RgQuery): Promise<readonly string[] | undefined> {
  // A cancelled call goes the usual way, which reports the cancellation.
  if (!run.options.index || run.signal?.aborted) return undefined;
  const [dashes, startArg, ...more] = query.tail;
  const selection = dashes === "--" && more.length === 0 ? selectionOf(query.flags, startArg) : undefined;
  if (selection === undefined) return undefined;
  return workspaceIndex(run.root)?.files(runnerOf(run), selection);
}

/**
 * A content search (`rg PATTERN start`, counted by line or by file) narrowed by the index. With a
 * plain literal the index counts matching lines itself, exactly as rg would, so a flood needs no rg
 * run; any other pattern only selects the files that contain one of its required literals.
 */
export async function indexedPlan(
  run: SearchRun,
  query: RgQuery,
  keep: ((path: string) => boolean) | undefined,
  cappedBy: "lines" | "files",
): Promise<IndexPlan | undefined> {
  if (!run.options.index || run.signal?.aborted || query.flags.includes("--ignore-case")) return undefined;
  const [dashes, pattern, startArg, ...more] = query.tail;
  if (dashes !== "--" || pattern === undefined || more.length > 0) return undefined;
  const fixed = query.flags.includes("--fixed-strings");
  const selection = selectionOf(
    query.flags.filter((f) => f !== "--fixed-strings"),
    startArg,
  );
  const literals = fixed ? fixedLiterals(pattern) : patternLiterals(pattern);
  if (selection === undefined || literals.kind === "none") return undefined;
  const pure = literals.kind === "pure";
  const needles = (pure ? [literals.literal] : literals.anyOf).map((l) => Buffer.from(l));
  if (needles.some((n) => n.length > MAX_INDEXED_LITERAL_BYTES)) return undefined;

  const scan = await workspaceIndex(run.root)?.scan(runnerOf(run), selection, keep, needles, pure);
  if (scan === undefined || scan.kind === "unsure") return undefined;
  if (pure) {
    const counted = cappedBy === "lines" ? scan.lines : scan.files;
    if (counted > run.options.maxResults) return { kind: "too_many", total: scan.lines, files: scan.files };
    if (scan.files === 0) return { kind: "none" };
  }
  const paths = scan.files === 0 ? [NO_FILES] : scan.paths().map((p) => `./${p}`);
  const bytes = paths.reduce((n, p) => n + Buffer.byteLength(p) + 1, 0);
  if (bytes > MAX_CANDIDATE_ARG_BYTES) return undefined;
  return { kind: "search", query: { flags: query.flags, tail: ["--", pattern, ...paths] } };
}
