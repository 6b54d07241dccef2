/**
 * A file's tags: what it defines (definitions.ts) and which names it uses, with counts. The ranking
 * joins them across files: file A uses `parseConfig`, file B defines it, so A leans on B.
 */
import { type CodeLanguage, codeLanguageOf, withTree } from "../syntax/index.js";
import { type Definition, definitionsOf } from "./definitions.js";

export interface FileTags {
  /** Root-relative, `/`-separated. */
  path: string;
  language: CodeLanguage;
  definitions: Definition[];
  /** Identifier → times used (its own definitions' names not counted), sorted by name. */
  references: Array<[string, number]>;
  /** Lines in the file, so a map can say whether it goes on past the last line shown. */
  lines: number;
  /** The tree had syntax errors: what tree-sitter recovered is here, the rest is missing. */
  partial: boolean;
}

/*
 * Names are counted by a lexer, not from the tree: one regex per language that steps over comments,
 * string literals and numbers and captures identifiers. Any tree-sitter pass over every node (a
 * query, a cursor walk) cost as much again as the parse itself; this costs a tenth of it. It is
 * Aider's own fallback (a lexer's Name tokens) for languages without reference queries. Keywords are
 * captured too, harmlessly: nothing can define them, so they link no files.
 */
const IDENTIFIER = "([A-Za-z_$][A-Za-z0-9_$]*)";
const NUMBER = "[0-9][A-Za-z0-9_]*";
const C_COMMENTS = String.raw`//[^\n]*|/\*[\s\S]*?\*/`;
const QUOTED = String.raw`"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*'`;
const BACKTICK_ESCAPED = String.raw`\x60(?:\\[\s\S]|[^\x60\\])*\x60`;
const PYTHON_STRINGS = String.raw`[rRbBuUfF]{0,2}(?:"""[\s\S]*?"""|'{3}[\s\S]*?'{3}|${QUOTED})`;
/** A lifetime (`'a`) is not a char literal: a char literal closes right after one (escaped) character. */
const RUST_STRINGS = String.raw`r#*"[\s\S]*?"#*|b?"(?:\\[\s\S]|[^"\\])*"|b?'(?:\\[^']+|[^'\\])'`;

const lexer = (...alternatives: string[]) => new RegExp([...alternatives, NUMBER, IDENTIFIER].join("|"), "g");
const LEXERS: Record<CodeLanguage, RegExp> = {
  python: lexer(String.raw`#[^\n]*`, PYTHON_STRINGS),
  typescript: lexer(C_COMMENTS, QUOTED, BACKTICK_ESCAPED),
  javascript: lexer(C_COMMENTS, QUOTED, BACKTICK_ESCAPED),
  go: lexer(C_COMMENTS, QUOTED, String.raw`\x60[^\x60]*\x60`),
  rust: lexer(C_COMMENTS, RUST_STRINGS),
};

/** The tags of `source`; undefined when no parser here reads `path`'s language (the caller counts it skipped). */
export async function tagsOf(path: string, source: string): Promise<FileTags | undefined> {
  const language = codeLanguageOf(path);
  if (!language) return undefined;
  return withTree(language, path, source, (root) => {
    const definitions = definitionsOf(language, root, source);
    return {
      path,
      language,
      definitions,
      references: referencesOf(source, LEXERS[language], definitions),
      lines: root.endPosition.row + 1,
      partial: root.hasError,
    };
  });
}

/** Every name used in the code, with counts. */
function referencesOf(
  source: string,
  lexer: RegExp,
  definitions: readonly Definition[],
): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const match of source.matchAll(lexer)) {
    const name = match[1];
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  // A definition's own name at its definition is not a use of anything.
  for (const d of definitions) {
    const left = (counts.get(d.name) ?? 0) - 1;
    if (left > 0) counts.set(d.name, left);
    else counts.delete(d.name);
  }
  return [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
