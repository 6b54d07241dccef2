import type { LogParserName } from "../parsers/index.js";
import { applyEdits, type Edit, type SyntaxNode, walk, withParsed } from "../syntax/index.js";
import type { BuilderLanguage } from "./paths.js";

/** A test as the log parsers name it, split into what the source can be searched for. */
export interface TestRef {
  /** Python: the class chain and function name; node: the describe chain and the test's name. */
  scope: string[];
  name: string;
  /** The file the id names (pytest ids carry it; node-tap ids do not). */
  file: string | undefined;
}

/** `tests/test_a.py::TestX::test_y[1-2]` or `outer > inner > name` → its parts. */
export function testRef(id: string, parser: LogParserName): TestRef {
  if (parser === "pytest") {
    const [file, ...rest] = id.split("::");
    const last = (rest.pop() ?? "").replace(/\[.*\]$/, "");
    return { file, scope: rest, name: last };
  }
  const parts = id.split(" > ");
  const name = parts.pop() ?? id;
  return { file: undefined, scope: parts, name };
}

const NODE_TEST_CALLEES = new Set(["it", "test", "specify"]);

/** The string a JS/TS string literal node spells, or undefined for templates with substitutions. */
function stringValue(node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.type === "string") return node.text.slice(1, -1);
  if (node.type === "template_string" && !node.text.includes("${")) return node.text.slice(1, -1);
  return undefined;
}

/** The node-test call `it("name", …)` / `describe("name", …)` an expression statement holds, if any. */
function nodeTestCall(
  stmt: SyntaxNode,
): { callee: string; name: string; body: SyntaxNode | undefined } | undefined {
  if (stmt.type !== "expression_statement") return undefined;
  const call = stmt.namedChild(0);
  if (call?.type !== "call_expression") return undefined;
  const fn = call.childForFieldName("function");
  const callee = fn?.type === "member_expression" ? fn.childForFieldName("object")?.text : fn?.text;
  const args = call.childForFieldName("arguments");
  const name = stringValue(args?.namedChild(0) ?? null);
  if (!callee || name === undefined) return undefined;
  const fnArg = args?.namedChildren.find(
    (c) => c?.type === "arrow_function" || c?.type === "function_expression",
  );
  return { callee, name, body: fnArg?.childForFieldName("body") ?? undefined };
}

/** The scope names (classes / describes) enclosing a node, outermost first. */
function scopeOf(node: SyntaxNode, language: BuilderLanguage): string[] {
  const scope: string[] = [];
  for (let p = node.parent; p; p = p.parent) {
    if (language === "python" && p.type === "class_definition")
      scope.unshift(p.childForFieldName("name")?.text ?? "");
    if (language !== "python" && p.type === "expression_statement") {
      const call = nodeTestCall(p);
      if (call?.callee === "describe" || call?.callee === "suite") scope.unshift(call.name);
    }
  }
  return scope;
}

/** The statement that defines test `ref` in the parsed file (decorators included), if it is there. */
export function findTest(root: SyntaxNode, language: BuilderLanguage, ref: TestRef): SyntaxNode | undefined {
  for (const node of walk(root)) {
    if (language === "python") {
      if (node.type !== "function_definition" || node.childForFieldName("name")?.text !== ref.name) continue;
      const holder = node.parent?.type === "decorated_definition" ? node.parent : node;
      if (scopeOf(node, language).join("::") === ref.scope.join("::")) return holder;
    } else {
      const call = nodeTestCall(node);
      if (!call || !NODE_TEST_CALLEES.has(call.callee) || !ref.name.endsWith(call.name)) continue;
      const path = [...scopeOf(node, language), call.name];
      if (path.join(" > ") === [...ref.scope, ref.name].join(" > ")) return node;
      // mocha's ids are full titles: the suites' titles and the test's joined by spaces.
      if (ref.scope.length === 0 && path.join(" ") === ref.name) return node;
    }
  }
  return undefined;
}

/** The body of a test (its function's block), for a reproduction. */
export function testBody(node: SyntaxNode, language: BuilderLanguage): SyntaxNode | undefined {
  if (language === "python") {
    const fn = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
    return fn?.childForFieldName("body") ?? undefined;
  }
  return nodeTestCall(node)?.body;
}

/** The range of `node` widened to whole lines, plus the blank lines after it. */
function lineRange(source: string, node: SyntaxNode): Edit {
  const lineStart = source.lastIndexOf("\n", node.startIndex - 1) + 1;
  const start = source.slice(lineStart, node.startIndex).trim() === "" ? lineStart : node.startIndex;
  let end = source.indexOf("\n", node.endIndex);
  end = end < 0 ? source.length : end + 1;
  for (;;) {
    const next = source.indexOf("\n", end);
    if (next < 0 || source.slice(end, next).trim() !== "") break;
    end = next + 1;
  }
  return { start, end, text: "" };
}

/**
 * Remove the given tests from one test file. Returns the new source and the refs removed; a Python
 * class left with no statements gets `pass` so the file still imports.
 */
export async function hideTests(
  language: BuilderLanguage,
  path: string,
  source: string,
  refs: readonly TestRef[],
): Promise<{ source: string; removed: TestRef[] }> {
  const hidden = await withParsed(language, path, source, (root) => {
    const nodes = new Map<number, SyntaxNode>();
    const removed: TestRef[] = [];
    for (const ref of refs) {
      const node = findTest(root, language, ref);
      if (!node) continue;
      nodes.set(node.startIndex, node);
      removed.push(ref);
    }
    const edits = [...nodes.values()].map((n) => lineRange(source, n));
    if (language === "python") {
      const emptied = new Set<SyntaxNode>();
      for (const node of nodes.values()) {
        const block = node.parent;
        if (block?.type !== "block" || block.parent?.type !== "class_definition" || emptied.has(block))
          continue;
        if (block.namedChildren.every((c) => c && nodes.has(c.startIndex))) {
          emptied.add(block);
          const first = block.namedChild(0) as SyntaxNode;
          const edit = edits.find((e) => e.start <= first.startIndex && first.startIndex < e.end);
          if (edit) edit.text = `${" ".repeat(first.startPosition.column)}pass\n\n`;
        }
      }
    }
    return { source: applyEdits(source, edits), removed };
  });
  return hidden ?? { source, removed: [] };
}
