/**
 * Our own glob matcher. rg's `--glob` cannot be used for a model's pattern: a matching `--glob`
 * overrides every ignore rule, so `--glob '*.log'` would list gitignored logs. Instead rg lists files
 * with ignore rules intact and we filter; a basename-only rg type (`--type-add`), which does respect
 * ignore rules, narrows what rg prints first.
 *
 * Syntax: `*` and `?` stay within one path segment (and match dotfiles, since hidden files are
 * searched); `**` as a whole segment spans any number of directories; `[abc]`, `[a-z]`, `[!abc]`;
 * `{a,b}`; `\` escapes the next character.
 */

export type GlobCompile = { ok: true; regex: RegExp } | { ok: false; error: string };

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, "\\$&");
}

/** Index of the `close` that ends the group opened at `open`, honouring escapes and nesting. */
function findClose(src: string, open: number, openChar: string, closeChar: string): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (c === openChar) depth++;
    else if (c === closeChar && --depth === 0) return i;
  }
  return -1;
}

/** Split `a,b{c,d}` on top-level commas. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === "\\") {
      current += c + (body[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function classToRegex(body: string): string {
  const negated = body.startsWith("!") || body.startsWith("^");
  const inner = (negated ? body.slice(1) : body).replace(/[\\\]^[]/g, "\\$&");
  // A class never matches the separator, as in every shell and in gitignore.
  return negated ? `[^/${inner}]` : `(?!/)[${inner}]`;
}

function toRegexSource(src: string): string {
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    const atSegmentStart = i === 0 || src[i - 1] === "/";
    if (c === "\\") {
      out += escapeRegex(src[i + 1] ?? "\\");
      i++;
    } else if (
      c === "*" &&
      src[i + 1] === "*" &&
      atSegmentStart &&
      (src[i + 2] === "/" || i + 2 === src.length)
    ) {
      const trailing = i + 2 === src.length;
      out += trailing ? "[\\s\\S]*" : "(?:[^/]*/)*";
      i += trailing ? 1 : 2;
    } else if (c === "*") {
      while (src[i + 1] === "*") i++;
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const close = src.indexOf("]", i + (src[i + 1] === "!" || src[i + 1] === "^" ? 3 : 2));
      if (close === -1) throw new Error(`unclosed "[" at position ${i + 1}`);
      out += classToRegex(src.slice(i + 1, close));
      i = close;
    } else if (c === "{") {
      const close = findClose(src, i, "{", "}");
      if (close === -1) throw new Error(`unclosed "{" at position ${i + 1}`);
      out += `(?:${splitAlternatives(src.slice(i + 1, close))
        .map(toRegexSource)
        .join("|")})`;
      i = close;
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

export function compileGlob(pattern: string): GlobCompile {
  try {
    return { ok: true, regex: new RegExp(`^${toRegexSource(pattern)}$`) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

const GLOB_META = /[*?[{\\]/;

/** Segments split on `/`, ignoring a leading `./` or `/` (globs are relative to the searched dir). */
export function globSegments(pattern: string): string[] {
  return pattern.replace(/^(\.\/|\/)+/, "").split("/");
}

/** The leading directories of a path glob that contain no wildcard: rg can start its walk there. */
export function literalPrefix(pattern: string): string[] {
  const segments = globSegments(pattern).slice(0, -1);
  const cut = segments.findIndex((s) => GLOB_META.test(s));
  return (cut === -1 ? segments : segments.slice(0, cut)).filter((s) => s !== ".");
}

/**
 * A basename glob rg can filter by as a file type, or undefined when handing it over would be unsafe:
 * `**` means something else in a basename, `:` breaks `--type-add`'s `name:glob` syntax, and a segment
 * cut out of a brace group (`{a/b,c}`) is not a glob at all.
 */
export function rgTypeGlob(pattern: string): string | undefined {
  const segments = globSegments(pattern);
  const last = segments.at(-1) ?? "";
  if (last === "" || last.includes("**") || last.includes(":")) return undefined;
  return braceDepth(last) === 0 && braceDepth(segments.slice(0, -1).join("/")) === 0 ? last : undefined;
}

function braceDepth(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "{") depth++;
    else if (text[i] === "}") depth--;
  }
  return depth;
}

/** Reject globs that climb out of the searched directory; they cannot match anything rg lists. */
export function climbsOut(pattern: string): boolean {
  return globSegments(pattern).includes("..");
}
