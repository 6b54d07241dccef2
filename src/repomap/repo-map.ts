/**
 * The repo map, end to end: list the files, read their tags (through the cache), rank the
 * definitions, fit the best of them to the budget. The I/O is here and in read-tags.ts; ranking and
 * rendering are pure.
 */
import { realpathSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { sharedCache, type TagsCache } from "./cache.js";
import { listFiles } from "./list-files.js";
import { type Mentioned, type Ranking, rankDefinitions } from "./rank.js";
import { readTags } from "./read-tags.js";
import { DEFAULT_MAP_TOKENS, estimateTokens, fitToBudget } from "./render.js";
import type { FileTags } from "./tags.js";

export interface RepoMapOptions {
  /** The repository's root on the host. */
  root: string;
  /** Root-relative files to map instead of listing the tree. */
  files?: readonly string[];
  /** What the conversation is about: the ranking leans toward these files (or folders) and names. */
  mentioned?: Mentioned;
  /** Default DEFAULT_MAP_TOKENS. */
  budgetTokens?: number;
  /** Where to keep the tags between processes (one JSON file per repository); absent = memory only. */
  cacheDir?: string;
  /** A trusted repository for `root`'s work tree (a workspace's snapshot), for listing it with git. */
  gitDir?: string;
  /** A cache of one's own (benchmarks: a cold build); default: the process's cache for this root. */
  cache?: TagsCache;
  /** Worker threads for a cold build's parsing (default one per core, at most 4); 0 = this thread only. */
  workers?: number;
}

export interface RepoMap {
  text: string;
  /** Files whose tags were read. */
  files: number;
  /** Definitions shown in `text`. */
  definitions: number;
  /** Files listed but not mapped (no parser for the language, too big, a link, unreadable). */
  skipped: number;
  /** Files parsed by this build: 0 when the cache had everything. */
  parsed: number;
  ms: number;
}

interface RankedMemo {
  key: string;
  ranking: Ranking;
  lines: Map<string, number>;
}

/** The last ranking per cache: a warm build of an unchanged tree (the common case) ranks nothing. */
const RANKED = new WeakMap<TagsCache, RankedMemo>();

function rankedThroughCache(
  cache: TagsCache,
  tags: readonly FileTags[],
  mentioned: Mentioned | undefined,
): RankedMemo {
  const key = JSON.stringify([cache.generation, mentioned ?? {}, tags.map((t) => t.path)]);
  const memo = RANKED.get(cache);
  if (memo?.key === key) return memo;
  const fresh = {
    key,
    ranking: rankDefinitions(tags, mentioned),
    lines: new Map(tags.map((t) => [t.path, t.lines])),
  };
  RANKED.set(cache, fresh);
  return fresh;
}

export async function buildRepoMap(options: RepoMapOptions): Promise<RepoMap> {
  const started = performance.now();
  const root = realpathSync(options.root);
  const cache = options.cache ?? sharedCache(root, options.cacheDir);
  const files = options.files ? [...options.files] : await listFiles(root, options.gitDir);
  const read = await readTags(
    root,
    files,
    cache,
    options.workers === undefined ? {} : { workers: options.workers },
  );
  if (!options.files) cache.retain(new Set(files));
  try {
    cache.save();
  } catch {
    // An unwritable cache directory costs the next build its warm start, not this map.
  }
  const { ranking, lines } = rankedThroughCache(cache, read.tags, options.mentioned);
  const fitted = fitToBudget(ranking.definitions, options.budgetTokens ?? DEFAULT_MAP_TOKENS, lines);
  return {
    text: fitted.text,
    files: read.tags.length,
    definitions: fitted.definitions,
    skipped: read.skipped,
    parsed: read.parsed,
    ms: performance.now() - started,
  };
}

const PREFIX_INTRO =
  "A map of this repository: its most referenced definitions, by file (⋮ marks lines left out).\n";

/** The map as a prompt prefix (an intro line, then the map), `budgetTokens` in all; "" when nothing maps. */
export async function repoMapPrefix(root: string, budgetTokens = DEFAULT_MAP_TOKENS): Promise<string> {
  const map = await buildRepoMap({ root, budgetTokens: budgetTokens - estimateTokens(PREFIX_INTRO) });
  return map.text === "" ? "" : `${PREFIX_INTRO}${map.text}`;
}
