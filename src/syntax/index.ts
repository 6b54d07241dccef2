/**
 * Source code as syntax trees: tree-sitter's parsers (WASM, no install step) for the languages acilab
 * reads, and the walks over their trees. A leaf: it knows files' text, nothing about tasks or runs.
 */
export { type CodeLanguage, codeLanguageOf, languageOf, type SyntaxLanguage } from "./languages.js";
export {
  applyEdits,
  type Edit,
  type Parser,
  parserFor,
  type SyntaxNode,
  walk,
  withParsed,
  withTree,
} from "./treesitter.js";
