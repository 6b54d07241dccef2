/**
 * What a ripgrep (Rust regex) pattern says about the bytes a matching line must contain, read
 * conservatively: the index uses it to skip files, so a literal we report must occur in every match.
 * Anything we do not fully understand ends the literal run or gives up; giving up only costs speed.
 */

/**
 * `pure`: the whole pattern is this one literal, so "a line matches" is exactly "the line contains
 * these bytes" and matches can be counted without rg. `required`: every match contains at least one
 * of these literals (one per top-level alternative). `none`: no usable literal.
 */
export type PatternLiterals =
  | { kind: "pure"; literal: string }
  | { kind: "required"; anyOf: string[] }
  | { kind: "none" };

/**
 * Escapes that mean "this character" in every regex version rg has shipped with. rg 13 rejects
 * escaping other punctuation (`\/` is an error), so those must never count as a literal, or the index
 * would answer where rg reports an invalid pattern.
 */
const LITERAL_ESCAPES = new Set([..."\\.+*?()|[]{}^$"]);
const QUANTIFIERS = new Set(["*", "?", "+", "{"]);
/** Characters with a meaning outside a class; every other character matches itself. */
const META = new Set([..."\\.+*?()|[]{}^$"]);

/** Top-level `|` positions, or undefined when groups or classes do not balance as we read them. */
function splitTopLevel(pattern: string): string[] | undefined {
  const branches: string[] = [];
  let depth = 0;
  let classDepth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (classDepth > 0) {
      if (c === "[") classDepth++;
      else if (c === "]") classDepth--;
      continue;
    }
    if (c === "[") {
      classDepth = 1;
      // A `]` right after `[` or `[^` is a literal member, not the end of the class.
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++;
    } else if (c === "(") depth++;
    else if (c === ")") {
      if (--depth < 0) return undefined;
    } else if (c === "|" && depth === 0) {
      branches.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0 || classDepth !== 0) return undefined;
  branches.push(pattern.slice(start));
  return branches;
}

/**
 * Literal runs of one alternative, read left to right until the first construct we do not model
 * (a group, a class, a letter escape): a run is broken by `.`, anchors and quantifiers, and a character
 * made optional by `*`, `?` or `{0…}` is dropped. `pure` is true when nothing but literals was seen.
 */
function branchLiterals(branch: string): { runs: string[]; pure: boolean } {
  const runs: string[] = [];
  let run = "";
  let pure = true;
  const flush = () => {
    if (run !== "") runs.push(run);
    run = "";
  };
  for (let i = 0; i < branch.length; i++) {
    let c = branch[i] as string;
    if (c === "\\") {
      const next = branch[i + 1];
      if (next === undefined || !LITERAL_ESCAPES.has(next)) {
        pure = false;
        break;
      }
      c = next;
      i++;
    } else if (META.has(c)) {
      pure = false;
      // `(`, `[` and `{` begin constructs we do not parse; `)`/`]`/`}` cannot appear here unescaped
      // in a pattern we understood. Stop, keeping what was read so far.
      if (c !== "." && c !== "^" && c !== "$") break;
      flush();
      continue;
    }
    const after = branch[i + 1];
    if (after !== undefined && QUANTIFIERS.has(after)) {
      pure = false;
      // `c+` and `c{2,}` still require one `c` right after the run; `c*`, `c?` and `c{0,…}` do not.
      const atLeastOne = after === "+" || (after === "{" && /^\{[1-9]/.test(branch.slice(i + 1)));
      if (atLeastOne) run += c;
      flush();
      break;
    }
    run += c;
  }
  flush();
  return { runs, pure };
}

/** A lone surrogate has no UTF-8 form: what rg receives would differ from what we search for. */
function wellFormed(text: string): boolean {
  return Buffer.from(text, "utf8").toString("utf8") === text;
}

export function patternLiterals(pattern: string): PatternLiterals {
  if (pattern === "" || !wellFormed(pattern)) return { kind: "none" };
  const branches = splitTopLevel(pattern);
  if (branches === undefined) return { kind: "none" };
  const anyOf: string[] = [];
  for (const branch of branches) {
    const { runs, pure } = branchLiterals(branch);
    if (pure && branches.length === 1 && runs.length === 1)
      return { kind: "pure", literal: runs[0] as string };
    const longest = runs.reduce((best, r) => (Buffer.byteLength(r) > Buffer.byteLength(best) ? r : best), "");
    // An alternative with no literal can match anywhere: the others cannot narrow the search.
    if (longest === "") return { kind: "none" };
    anyOf.push(longest);
  }
  return { kind: "required", anyOf };
}

/** A literal term (`--fixed-strings`), as search_dir and search_file pass it. */
export function fixedLiterals(term: string): PatternLiterals {
  return term === "" || !wellFormed(term) ? { kind: "none" } : { kind: "pure", literal: term };
}
