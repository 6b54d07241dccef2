/**
 * Which definitions matter, after Aider's repo map: files are nodes, and file A has an edge to file B
 * for each name A uses that B defines. PageRank over that graph says which files the rest of the
 * repository leans on; each definition then gets the share of its file's incoming rank that arrived
 * through edges naming it. Pure: the same tags give the same order, ties broken by path and line.
 */
import type { Definition } from "./definitions.js";
import type { FileTags } from "./tags.js";

/** What the conversation talks about: ranking leans toward these. */
export interface Mentioned {
  /** Root-relative files, or folders (everything under them counts). */
  files?: readonly string[];
  idents?: readonly string[];
}

export interface RankedDefinition {
  path: string;
  definition: Definition;
  rank: number;
}

export interface Ranking {
  /** Every definition, most important first. */
  definitions: RankedDefinition[];
  /** PageRank per file (sums to 1 over files with tags). */
  files: Map<string, number>;
}

/** PageRank's damping factor: the textbook (and networkx's, which Aider uses) 0.85. */
const DAMPING = 0.85;
const MAX_ITERATIONS = 100;
/** Stop when the ranks moved less than this in total (networkx's tolerance × N, per node here). */
const TOLERANCE = 1e-6;
/** Aider's weights: a name the conversation uses, a long descriptive name, a private one, a common one. */
const MENTIONED_IDENT = 10;
const DESCRIPTIVE_NAME = 10;
const DESCRIPTIVE_MIN_LENGTH = 8;
const PRIVATE_NAME = 0.1;
const COMMON_NAME = 0.1;
/** A name defined in more files than this is generic (`new`, `run`, `__init__`): it says little about which. */
const COMMON_NAME_DEFINERS = 5;
/** Edges out of a mentioned file: what the files under discussion use is what the reader needs next. */
const MENTIONED_REFERENCER = 50;

/** How much one use of `ident` says about a dependency, before the referencing file's own boost. */
export function identWeight(ident: string, definers: number, mentioned: ReadonlySet<string>): number {
  let weight = 1;
  if (mentioned.has(ident)) weight *= MENTIONED_IDENT;
  const snake = ident.includes("_") && /[a-zA-Z]/.test(ident.replace(/^_+/, ""));
  const camel = /[a-z]/.test(ident) && /[A-Z]/.test(ident);
  if ((snake || camel) && ident.length >= DESCRIPTIVE_MIN_LENGTH) weight *= DESCRIPTIVE_NAME;
  if (ident.startsWith("_")) weight *= PRIVATE_NAME;
  if (definers > COMMON_NAME_DEFINERS) weight *= COMMON_NAME;
  return weight;
}

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isUnder(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => {
    const clean = p.replace(/^\.\/+/, "").replace(/\/+$/, "");
    return clean === "" || clean === "." || path === clean || path.startsWith(`${clean}/`);
  });
}

interface Edge {
  from: number;
  to: number;
  ident: string;
  weight: number;
}

/** The weighted edges, in a fixed order (files by path, names by name). */
function edgesOf(files: readonly FileTags[], mentioned: Mentioned): Edge[] {
  const definers = new Map<string, number[]>();
  files.forEach((f, i) => {
    for (const name of new Set(f.definitions.map((d) => d.name))) {
      const list = definers.get(name);
      if (list) list.push(i);
      else definers.set(name, [i]);
    }
  });
  const idents = new Set(mentioned.idents ?? []);
  const boosted = mentioned.files ?? [];
  const edges: Edge[] = [];
  files.forEach((f, from) => {
    const boost = boosted.length > 0 && isUnder(f.path, boosted) ? MENTIONED_REFERENCER : 1;
    for (const [ident, count] of f.references) {
      const to = definers.get(ident);
      if (!to) continue;
      const weight = identWeight(ident, to.length, idents) * boost * Math.sqrt(count);
      for (const t of to) if (t !== from) edges.push({ from, to: t, ident, weight });
    }
  });
  return edges;
}

/** Personalised PageRank by power iteration; a file with no edges out hands its rank to the personalisation. */
function pageRank(n: number, edges: readonly Edge[], personal: readonly number[]): number[] {
  const out = new Array<number>(n).fill(0);
  for (const e of edges) out[e.from] = (out[e.from] ?? 0) + e.weight;
  let rank = [...personal];
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if ((out[i] ?? 0) === 0) dangling += rank[i] ?? 0;
    const next = personal.map((p) => (1 - DAMPING + DAMPING * dangling) * p);
    for (const e of edges)
      next[e.to] = (next[e.to] ?? 0) + (DAMPING * (rank[e.from] ?? 0) * e.weight) / (out[e.from] ?? 1);
    let moved = 0;
    for (let i = 0; i < n; i++) moved += Math.abs((next[i] ?? 0) - (rank[i] ?? 0));
    rank = next;
    if (moved < n * TOLERANCE) break;
  }
  return rank;
}

/** Rank every definition in `files` (any order in, a fixed order out). */
export function rankDefinitions(tags: readonly FileTags[], mentioned: Mentioned = {}): Ranking {
  const files = [...tags].sort((a, b) => byString(a.path, b.path));
  const n = files.length;
  const edges = edgesOf(files, mentioned);
  const boosted = mentioned.files ?? [];
  const chosen = boosted.length > 0 ? files.map((f) => isUnder(f.path, boosted)) : [];
  const count = chosen.filter(Boolean).length;
  const personal = files.map((_, i) => (count > 0 ? (chosen[i] ? 1 / count : 0) : 1 / n));
  const rank = n > 0 ? pageRank(n, edges, personal) : [];

  const out = new Array<number>(n).fill(0);
  for (const e of edges) out[e.from] = (out[e.from] ?? 0) + e.weight;
  // A definition's rank: the share of each referencing file's rank that flows along edges naming it.
  const share = new Map<string, number>();
  for (const e of edges) {
    const key = `${e.to}\0${e.ident}`;
    share.set(key, (share.get(key) ?? 0) + ((rank[e.from] ?? 0) * e.weight) / (out[e.from] ?? 1));
  }
  const definitions: Array<RankedDefinition & { fileRank: number }> = [];
  files.forEach((f, i) => {
    for (const definition of f.definitions)
      definitions.push({
        path: f.path,
        definition,
        rank: share.get(`${i}\0${definition.name}`) ?? 0,
        fileRank: rank[i] ?? 0,
      });
  });
  // Unused definitions keep an order too: their file's rank, then where they are.
  definitions.sort(
    (a, b) =>
      b.rank - a.rank ||
      b.fileRank - a.fileRank ||
      byString(a.path, b.path) ||
      a.definition.line - b.definition.line,
  );
  return {
    definitions: definitions.map(({ path, definition, rank }) => ({ path, definition, rank })),
    files: new Map(files.map((f, i) => [f.path, rank[i] ?? 0])),
  };
}
