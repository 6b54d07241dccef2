import { posix } from "node:path";

/** The languages acilab parses with tree-sitter (normalised patches, task builders' test hiding). */
export type SyntaxLanguage = "python" | "typescript" | "javascript";

const SOURCE_EXTENSIONS: Record<string, SyntaxLanguage> = {
  ".py": "python",
  ".ts": "typescript",
  ".tsx": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
};

/** The language of a code file by its extension, or undefined for docs, data and config. */
export function languageOf(path: string): SyntaxLanguage | undefined {
  return SOURCE_EXTENSIONS[posix.extname(path)];
}

/**
 * Every language tree-sitter parses here: SyntaxLanguage's, and Go and Rust, which only
 * whole-repository readers (the repo map) need. Kept apart so the patch normaliser, the skeletons and
 * the task builders, which handle SyntaxLanguage's three, do not meet a language they have no rules for.
 */
export type CodeLanguage = SyntaxLanguage | "go" | "rust";

const CODE_EXTENSIONS: Record<string, CodeLanguage> = { ...SOURCE_EXTENSIONS, ".go": "go", ".rs": "rust" };

/** The language of a code file among all that parse here (CodeLanguage), or undefined. */
export function codeLanguageOf(path: string): CodeLanguage | undefined {
  return CODE_EXTENSIONS[posix.extname(path)];
}
