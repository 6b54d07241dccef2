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
