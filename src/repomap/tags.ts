/**
 * A file's tags: what it defines (definitions.ts) and which names it uses, with counts. The ranking
 * joins them across files: file A uses `parseConfig`, file B defines it, so A leans on B.
 */
import { type CodeLanguage, codeLanguageOf, queryFor, type SyntaxNode, withTree } from "../syntax/index.js";
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

/**
 * The identifier nodes that are uses of a name. A query over them runs inside the WASM module, which
 * is cheaper than walking the tree node by node from JavaScript (each node visited is a crossing).
 */
const REFERENCE_NODES: Record<CodeLanguage, string[]> = {
  python: ["identifier"],
  typescript: ["identifier", "property_identifier", "type_identifier", "shorthand_property_identifier"],
  javascript: ["identifier", "property_identifier", "shorthand_property_identifier"],
  go: ["identifier", "field_identifier", "type_identifier", "package_identifier"],
  rust: ["identifier", "field_identifier", "type_identifier"],
};

function referenceQuery(language: CodeLanguage): string {
  return `[${REFERENCE_NODES[language].map((t) => `(${t})`).join(" ")}] @ref`;
}

/** The tags of `source`; undefined when no parser here reads `path`'s language (the caller counts it skipped). */
export async function tagsOf(path: string, source: string): Promise<FileTags | undefined> {
  const language = codeLanguageOf(path);
  if (!language) return undefined;
  const query = await queryFor(language, path, referenceQuery(language));
  return withTree(language, path, source, (root) => {
    const definitions = definitionsOf(language, root, source);
    return {
      path,
      language,
      definitions,
      references: referencesOf(root, query, definitions),
      lines: root.endPosition.row + 1,
      partial: root.hasError,
    };
  });
}

function referencesOf(
  root: SyntaxNode,
  query: Awaited<ReturnType<typeof queryFor>>,
  definitions: readonly Definition[],
): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const { node } of query.captures(root)) {
    const name = node.text;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  // A definition's own name node is an identifier too, and not a use of anything.
  for (const d of definitions) {
    const left = (counts.get(d.name) ?? 0) - 1;
    if (left > 0) counts.set(d.name, left);
    else counts.delete(d.name);
  }
  return [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
