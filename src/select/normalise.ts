/**
 * A patch reduced to what it does: for each source file it changes, the functions (or top-level
 * statements) it touched, re-printed from tree-sitter's syntax tree as their tokens with comments and
 * whitespace dropped. Two candidates that make the same edit with other comments, blank lines or
 * indentation get the same form, so a vote counts them as one (Agentless's normalisation).
 */
import { createHash } from "node:crypto";
import { isTestPath } from "../swebench/index.js";
import { languageOf, type SyntaxLanguage, type SyntaxNode, walk, withParsed } from "../syntax/index.js";
import { applyFileDiff, type FileDiff, readDiff } from "./diff-files.js";

/** The nodes an edit is attributed to: the innermost enclosing one of these, else the top-level statement. */
const JS_UNITS: ReadonlySet<string> = new Set([
  "function_declaration",
  "generator_function_declaration",
  "method_definition",
  "function_expression",
  "arrow_function",
  "class_declaration",
]);
const UNITS: Record<SyntaxLanguage, ReadonlySet<string>> = {
  python: new Set(["function_definition", "class_definition"]),
  typescript: JS_UNITS,
  javascript: JS_UNITS,
};

export interface NormalisedPatch {
  /** sha256 of `form`: what the vote groups by. */
  key: string;
  /** One line per changed unit, `path: tokens`, sorted; empty for a patch that changes no code. */
  form: string;
  /** Files that fell back to their diff lines (not a known language, base unreadable, a hunk off). */
  raw: string[];
}

/**
 * `readBase(path)` is the file at the base commit (undefined if it does not exist there). Test files
 * are left out: a candidate's own reproduction test is not part of its fix.
 */
export async function normalisePatch(
  patch: string,
  readBase: (path: string) => Promise<string | undefined>,
): Promise<NormalisedPatch> {
  const lines: string[] = [];
  const raw: string[] = [];
  for (const file of readDiff(patch)) {
    if (isTestPath(file.path)) continue;
    const units = await fileUnits(file, readBase);
    if (units === undefined) {
      raw.push(file.path);
      lines.push(`${file.path} (diff): ${diffTokens(file)}`);
    } else for (const unit of units) lines.push(`${file.path}: ${unit}`);
  }
  const form = [...new Set(lines)].sort().join("\n");
  return { key: createHash("sha256").update(form).digest("hex"), form, raw };
}

async function fileUnits(
  file: FileDiff,
  readBase: (path: string) => Promise<string | undefined>,
): Promise<string[] | undefined> {
  if (file.status === "deleted") return ["(deleted)"];
  const language = languageOf(file.path);
  if (!language) return undefined;
  const base = file.status === "added" ? "" : await readBase(file.path);
  if (base === undefined) return undefined;
  const post = applyFileDiff(base, file);
  if (!post) return undefined;
  const before = file.status === "added" ? new Set<string>() : await baseUnits(language, file.path, base);
  const memo = `${language}\0${file.path}\0${post.changed.join(",")}\0${post.text}`;
  let after = POST_CACHE.get(memo);
  if (!after) {
    // The promise is cached, so candidates normalised at once share one parse.
    after = withParsed(language, file.path, post.text, (root) => {
      const seen = new Map<number, string>();
      for (const line of post.changed) {
        const node = unitAt(root, language, line - 1);
        if (node && !seen.has(node.startIndex)) seen.set(node.startIndex, tokens(node));
      }
      return [...seen.values()];
    });
    if (post.text.length <= POST_CACHE_MAX_CHARS) remember(POST_CACHE, memo, after, POST_CACHE_SIZE);
  }
  const units = await after;
  // A file that no longer parses is compared by its diff; a unit exactly as it was at the base (only a
  // comment or blank line changed) is no change at all.
  return units?.filter((unit) => !before.has(unit));
}

/** The innermost unit node containing `row` (0-based), else the top-level statement there. */
function unitAt(root: SyntaxNode, language: SyntaxLanguage, row: number): SyntaxNode | undefined {
  // The smallest node at the row's start, climbed until a unit: O(depth), not a walk of the whole tree.
  let node: SyntaxNode | null = root.descendantForPosition({ row, column: 0 });
  let top: SyntaxNode | undefined;
  for (; node && node.id !== root.id; node = node.parent) {
    if (UNITS[language].has(node.type) && node.startPosition.row <= row && node.endPosition.row >= row)
      return node;
    top = node;
  }
  if (top && top.startPosition.row <= row && top.endPosition.row >= row) return top;
  for (let i = 0; i < root.namedChildCount; i++) {
    const child = root.namedChild(i);
    if (child && child.startPosition.row <= row && child.endPosition.row >= row) return child;
  }
  return undefined;
}

/**
 * A base file's units, normalised; kept for the last few base files, since every candidate of a task
 * edits the same few files at the same commit (1,000 candidates must not parse the base 1,000 times).
 */
const BASE_CACHE = new Map<string, Promise<Set<string>>>();
const BASE_CACHE_SIZE = 32;
/**
 * Units of post-images already parsed: samplers repeat themselves (the same edit written twice gives
 * the same post-image), and a parse is ~1.5 ms of a 300-line file where everything else is ~0.1 ms.
 */
const POST_CACHE = new Map<string, Promise<string[] | undefined>>();
const POST_CACHE_SIZE = 512;
/** Files larger than this are not kept: 512 of them must stay well under a gigabyte. */
const POST_CACHE_MAX_CHARS = 256 * 1024;

function remember<V>(cache: Map<string, V>, key: string, value: V, size: number): void {
  if (cache.size >= size) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

async function baseUnits(language: SyntaxLanguage, path: string, base: string): Promise<Set<string>> {
  const key = `${language}\0${path}\0${base}`;
  const hit = BASE_CACHE.get(key);
  if (hit) return hit;
  // The promise is cached, so candidates normalised at once share one parse.
  const units = withParsed(language, path, base, (root) => allUnits(root, language)).then(
    (u) => new Set(u ?? []),
  );
  remember(BASE_CACHE, key, units, BASE_CACHE_SIZE);
  return units;
}

/** Every unit of a file and every top-level statement, normalised: what "unchanged" is measured against. */
function allUnits(root: SyntaxNode, language: SyntaxLanguage): string[] {
  const out: string[] = [];
  for (const node of walk(root)) if (UNITS[language].has(node.type)) out.push(tokens(node));
  for (let i = 0; i < root.namedChildCount; i++) {
    const child = root.namedChild(i);
    if (child) out.push(tokens(child));
  }
  return out;
}

/** The node's leaves, comments dropped, one space between: layout and comments no longer count. */
function tokens(node: SyntaxNode): string {
  const out: string[] = [];
  for (const n of walk(node))
    if (n.childCount === 0 && n.type !== "comment" && n.text !== "") out.push(n.text);
  return out.join(" ");
}

/** A file we cannot parse: its added and removed lines, whitespace dropped, in order. */
function diffTokens(file: FileDiff): string {
  return file.hunks
    .flatMap((h) =>
      h.lines.filter((l) => l.mark !== " ").map((l) => `${l.mark}${l.text.replace(/\s+/g, "")}`),
    )
    .filter((l) => l.length > 1)
    .join(" ");
}
