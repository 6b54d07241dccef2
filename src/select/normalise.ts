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
const UNITS: Record<SyntaxLanguage, ReadonlySet<string>> = {
  python: new Set(["function_definition", "class_definition"]),
  typescript: new Set([
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "function_expression",
    "arrow_function",
    "class_declaration",
  ]),
  javascript: new Set([
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "function_expression",
    "arrow_function",
    "class_declaration",
  ]),
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
  const after = await withParsed(language, file.path, post.text, (root) => {
    const seen = new Map<number, string>();
    for (const line of post.changed) {
      const node = unitAt(root, language, line - 1);
      if (node && !seen.has(node.startIndex)) seen.set(node.startIndex, tokens(node));
    }
    return [...seen.values()];
  });
  // A file that no longer parses is compared by its diff; a unit exactly as it was at the base (only a
  // comment or blank line changed) is no change at all.
  return after?.filter((unit) => !before.has(unit));
}

/** The innermost unit node containing `row` (0-based), else the top-level statement there. */
function unitAt(root: SyntaxNode, language: SyntaxLanguage, row: number): SyntaxNode | undefined {
  // The first non-blank column of the row, so the node found lies on that line rather than before it.
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

async function baseUnits(language: SyntaxLanguage, path: string, base: string): Promise<Set<string>> {
  const key = `${language}\0${path}\0${base}`;
  const hit = BASE_CACHE.get(key);
  if (hit) return hit;
  // The promise is cached, so candidates normalised at once share one parse.
  const units = withParsed(language, path, base, (root) => allUnits(root, language)).then(
    (u) => new Set(u ?? []),
  );
  if (BASE_CACHE.size >= BASE_CACHE_SIZE) BASE_CACHE.delete(BASE_CACHE.keys().next().value as string);
  BASE_CACHE.set(key, units);
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
