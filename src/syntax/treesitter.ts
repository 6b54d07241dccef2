import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { CodeLanguage } from "./languages.js";

/**
 * tree-sitter through @vscode/tree-sitter-wasm: web-tree-sitter and prebuilt grammar .wasm files in
 * one npm package with no install script (no node-gyp, no download), so it installs from the
 * registry alone and runs on Node 20.
 */
type TreeSitterModule = typeof import("@vscode/tree-sitter-wasm");
export type SyntaxNode = import("@vscode/tree-sitter-wasm").Node;
export type Parser = import("@vscode/tree-sitter-wasm").Parser;

const require = createRequire(import.meta.url);
const GRAMMARS: Record<CodeLanguage, string> = {
  python: "tree-sitter-python.wasm",
  typescript: "tree-sitter-typescript.wasm",
  javascript: "tree-sitter-javascript.wasm",
  go: "tree-sitter-go.wasm",
  rust: "tree-sitter-rust.wasm",
};

let loaded: Promise<TreeSitterModule> | undefined;
const parsers = new Map<string, Promise<Parser>>();

function wasmDir(): string {
  return dirname(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter.js"));
}

async function module(): Promise<TreeSitterModule> {
  loaded ??= (async () => {
    const ts = require("@vscode/tree-sitter-wasm") as TreeSitterModule;
    await ts.Parser.init({ locateFile: (file: string) => join(wasmDir(), file) });
    return ts;
  })();
  return loaded;
}

/** A parser for the language (tsx files use the TSX grammar); one per grammar per process. */
export function parserFor(language: CodeLanguage, path = ""): Promise<Parser> {
  const grammar = path.endsWith(".tsx") ? "tree-sitter-tsx.wasm" : GRAMMARS[language];
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      const ts = await module();
      const lang = await ts.Language.load(join(wasmDir(), grammar));
      const p = new ts.Parser();
      p.setLanguage(lang);
      return p;
    })();
    parsers.set(grammar, parser);
  }
  return parser;
}

/**
 * Parse `source` and hand its root to `use`; undefined when the file does not parse cleanly. The
 * tree lives in the WASM heap, which JavaScript's collector does not see: it is freed when `use`
 * returns, so nodes must not outlive it. (Trees kept alive grew the heap until tree-sitter aborted
 * — "Aborted()", then "table index is out of bounds" on every later parse — mirroring
 * path-to-regexp's 55 KB spec file candidate after candidate.)
 */
export async function withParsed<T>(
  language: CodeLanguage,
  path: string,
  source: string,
  use: (root: SyntaxNode) => T | Promise<T>,
): Promise<T | undefined> {
  return withTree(language, path, source, (root) => (root.hasError ? undefined : use(root)));
}

/**
 * Like withParsed, but `use` also gets a tree with syntax errors (tree-sitter recovers around them;
 * `root.hasError` tells): for readers that take what they can from a file being edited. Freed the same way.
 */
export async function withTree<T>(
  language: CodeLanguage,
  path: string,
  source: string,
  use: (root: SyntaxNode) => T | Promise<T>,
): Promise<T | undefined> {
  const tree = (await parserFor(language, path)).parse(source);
  if (!tree) return undefined;
  try {
    return await use(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** Every node below `root` (root included), depth first, in source order. */
export function* walk(root: SyntaxNode): Generator<SyntaxNode> {
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    yield node;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
}

/** A text replacement at [start, end) of a file's source (string offsets). */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Apply non-overlapping edits (any order) to `source`. */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  let out = source;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
