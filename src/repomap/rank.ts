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

/**
 * How much one use of `ident` says about a dependency, before the referencing file's own boost.
 * `referencers`: how many files use the name. A short plain word used all over (`text`, `root`,
 * `get`) is mostly other things of that name — locals, properties, library calls: names are counted
 * by a lexer, not resolved — so its pull is divided by √referencers, and its total pull grows with
 * √referencers instead of linearly. (Aider's references are call sites only and skip this step.)
 */
export function identWeight(
  ident: string,
  definers: number,
  mentioned: ReadonlySet<string>,
  referencers = 1,
): number {
  let weight = 1;
  const isMentioned = mentioned.has(ident);
  if (isMentioned) weight *= MENTIONED_IDENT;
  // Leading underscores mark privacy, not words: `_private` is not snake_case (Aider counts it as such).
  const bare = ident.replace(/^_+/, "");
  const snake = bare.includes("_") && /[a-zA-Z]/.test(bare);
  const camel = /[a-z]/.test(ident) && /[A-Z]/.test(ident);
  if ((snake || camel) && ident.length >= DESCRIPTIVE_MIN_LENGTH) weight *= DESCRIPTIVE_NAME;
  else if (!isMentioned) weight /= Math.sqrt(Math.max(1, referencers));
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

/** The graph's edges as parallel arrays (one entry per referencing file, defining file and name). */
interface Edges {
  from: Int32Array;
  to: Int32Array;
  weight: Float64Array;
  ident: string[];
}

/** The weighted edges, in a fixed order (files by path, then each file's names by name). */
function edgesOf(files: readonly FileTags[], mentioned: Mentioned): Edges {
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
  const from: number[] = [];
  const to: number[] = [];
  const weight: number[] = [];
  const ident: string[] = [];
  const referencers = new Map<string, number>();
  for (const f of files)
    for (const [name] of f.references)
      if (definers.has(name)) referencers.set(name, (referencers.get(name) ?? 0) + 1);
  const weights = new Map<string, number>(); // identWeight per name, computed once (regexes are not free)
  files.forEach((f, i) => {
    const boost = boosted.length > 0 && isUnder(f.path, boosted) ? MENTIONED_REFERENCER : 1;
    for (const [name, count] of f.references) {
      const targets = definers.get(name);
      if (!targets) continue;
      let base = weights.get(name);
      if (base === undefined) {
        base = identWeight(name, targets.length, idents, referencers.get(name));
        weights.set(name, base);
      }
      const w = base * boost * Math.sqrt(count);
      for (const t of targets) {
        if (t === i) continue; // a file using its own names says nothing about which other files matter
        from.push(i);
        to.push(t);
        weight.push(w);
        ident.push(name);
      }
    }
  });
  return { from: Int32Array.from(from), to: Int32Array.from(to), weight: Float64Array.from(weight), ident };
}

/** Each file's total outgoing weight. */
function outWeights(n: number, edges: Edges): Float64Array {
  const out = new Float64Array(n);
  for (let e = 0; e < edges.from.length; e++) {
    const f = edges.from[e] as number;
    out[f] = (out[f] as number) + (edges.weight[e] as number);
  }
  return out;
}

/** Personalised PageRank by power iteration; a file with no edges out hands its rank to the personalisation. */
function pageRank(edges: Edges, out: Float64Array, personal: Float64Array): Float64Array {
  const n = personal.length;
  let rank = Float64Array.from(personal);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if (out[i] === 0) dangling += rank[i] as number;
    const base = 1 - DAMPING + DAMPING * dangling;
    for (let i = 0; i < n; i++) next[i] = base * (personal[i] as number);
    for (let e = 0; e < edges.from.length; e++) {
      const f = edges.from[e] as number;
      const t = edges.to[e] as number;
      next[t] =
        (next[t] as number) +
        (DAMPING * (rank[f] as number) * (edges.weight[e] as number)) / (out[f] as number);
    }
    let moved = 0;
    for (let i = 0; i < n; i++) moved += Math.abs((next[i] as number) - (rank[i] as number));
    [rank, next] = [next, rank];
    if (moved < n * TOLERANCE) break;
  }
  return rank;
}

/** Rank every definition in `files` (any order in, a fixed order out). */
export function rankDefinitions(tags: readonly FileTags[], mentioned: Mentioned = {}): Ranking {
  const files = [...tags].sort((a, b) => byString(a.path, b.path));
  const n = files.length;
  const edges = edgesOf(files, mentioned);
  const out = outWeights(n, edges);
  const boosted = mentioned.files ?? [];
  const chosen = files.map((f) => boosted.length > 0 && isUnder(f.path, boosted));
  const count = chosen.filter(Boolean).length;
  const personal = Float64Array.from(chosen, (c) => (count > 0 ? (c ? 1 / count : 0) : 1 / n));
  const rank = n > 0 ? pageRank(edges, out, personal) : new Float64Array(0);

  // A definition's rank: the share of each referencing file's rank that flows along edges naming it.
  const share = files.map(() => new Map<string, number>());
  for (let e = 0; e < edges.from.length; e++) {
    const f = edges.from[e] as number;
    const into = share[edges.to[e] as number] as Map<string, number>;
    const name = edges.ident[e] as string;
    into.set(
      name,
      (into.get(name) ?? 0) + ((rank[f] as number) * (edges.weight[e] as number)) / (out[f] as number),
    );
  }
  const definitions: Array<RankedDefinition & { file: number }> = [];
  files.forEach((f, i) => {
    const shares = share[i] as Map<string, number>;
    for (const definition of f.definitions)
      definitions.push({ path: f.path, definition, rank: shares.get(definition.name) ?? 0, file: i });
  });
  // Unused definitions keep an order too: their file's rank, then where they are (files are in path order).
  definitions.sort(
    (a, b) =>
      b.rank - a.rank ||
      (rank[b.file] as number) - (rank[a.file] as number) ||
      a.file - b.file ||
      a.definition.line - b.definition.line,
  );
  return {
    definitions: definitions.map(({ path, definition, rank }) => ({ path, definition, rank })),
    files: new Map(files.map((f, i) => [f.path, rank[i] as number])),
  };
}
