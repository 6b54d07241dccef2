/** The node:assert reader: how a file binds the module, and an assertion's inversion. */
import type { SyntaxNode } from "../../syntax/index.js";
import { type Inversion, replacing } from "./found.js";
import { callArgs, expectedValueInversion, type Resolve } from "./js-values.js";

/** How the file imports node:assert: local names bound to the module, and to its functions. */
export interface AssertBindings {
  /**
   * The file is TypeScript, run through a loader (tsx): a failing `assert.ok(x)` with no message
   * makes node read the call's source to quote it, at the position the loader's source map gives,
   * which is not the file's — node then parses the file from thousands of offsets, a minute or more
   * per failure on a 10 KB file. Negations through `ok` are left out there.
   */
  transpiled?: boolean;
  /** `assert` in `import assert from "node:assert/strict"`, with whether it is the strict mode. */
  modules: Map<string, boolean>;
  /** `strictEqual` in `import { strictEqual } from "node:assert"` → the function's own name. */
  functions: Map<string, { method: string; strict: boolean }>;
}

const ASSERT_MODULE = /^(node:)?assert(\/strict)?$/;

export function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === "string")
    return node.text.slice(1, -1).includes("\\") ? undefined : node.text.slice(1, -1);
  if (node.type === "template_string" && node.namedChildren.length === 0) return node.text.slice(1, -1);
  return undefined;
}

export function assertBindings(root: SyntaxNode): AssertBindings {
  const out: AssertBindings = { modules: new Map(), functions: new Map() };
  const bind = (from: string, target: SyntaxNode) => {
    const strict = from.endsWith("/strict");
    if (target.type === "identifier") out.modules.set(target.text, strict);
    for (const spec of target.descendantsOfType([
      "import_specifier",
      "pair_pattern",
      "shorthand_property_identifier_pattern",
    ])) {
      if (!spec) continue;
      const imported =
        spec.type === "shorthand_property_identifier_pattern"
          ? spec
          : (spec.childForFieldName("name") ?? spec.childForFieldName("key"));
      const local =
        spec.type === "shorthand_property_identifier_pattern"
          ? spec
          : (spec.childForFieldName("alias") ?? spec.childForFieldName("value") ?? imported);
      if (
        !imported ||
        !local ||
        (local.type !== "identifier" && local.type !== "shorthand_property_identifier_pattern")
      )
        continue;
      if (imported.text === "strict" || imported.text === "default")
        out.modules.set(local.text, strict || imported.text === "strict");
      else
        out.functions.set(local.text, {
          method: imported.text,
          strict: strict || imported.text.includes("Strict"),
        });
    }
  };
  // Imports and requires sit at the top of a test file: its own statements, not every node, are read.
  const top = root.namedChildren.flatMap((n) =>
    n?.type === "lexical_declaration" || n?.type === "variable_declaration" ? n.namedChildren : [n],
  );
  for (const node of top) {
    if (!node) continue;
    if (node.type === "import_statement") {
      const from = stringValue(node.childForFieldName("source"));
      const clause = node.namedChildren.find((c) => c?.type === "import_clause");
      if (!from || !ASSERT_MODULE.test(from) || !clause) continue;
      for (const part of clause.namedChildren) {
        if (!part) continue;
        if (part.type === "identifier") bind(from, part);
        else if (part.type === "namespace_import") {
          const id = part.namedChildren.find((c) => c?.type === "identifier");
          if (id) bind(from, id);
        } else bind(from, part);
      }
    } else if (node.type === "variable_declarator") {
      const value = node.childForFieldName("value");
      if (value?.type !== "call_expression" || value.childForFieldName("function")?.text !== "require")
        continue;
      const from = stringValue(value.childForFieldName("arguments")?.namedChildren[0]);
      const target = node.childForFieldName("name");
      if (from && ASSERT_MODULE.test(from) && target) bind(from, target);
    }
  }
  return out;
}

/** `assert.rejects(…)`, `expect(p).resolves.toBe(…)`: assertions that settle when their promise does. */
export function settlesLater(call: SyntaxNode, b: AssertBindings): boolean {
  const fn = call.childForFieldName("function");
  if (!fn) return false;
  if (fn.type === "identifier")
    return /^(rejects|doesNotReject)$/.test(b.functions.get(fn.text)?.method ?? "");
  return /\.(rejects|doesNotReject)$|\.(resolves|rejects)\.\w+$/.test(fn.text);
}

const EQUALS = /^(equal|strictEqual|deepEqual|deepStrictEqual)$/;
const SWAP: Record<string, string> = {
  ok: "",
  match: "doesNotMatch",
  doesNotMatch: "match",
};

export function assertInversion(
  call: SyntaxNode,
  b: AssertBindings,
  resolve: Resolve,
): Inversion | undefined {
  const fn = call.childForFieldName("function");
  if (!fn) return undefined;
  let method: string;
  let strict: boolean;
  let methodNode: SyntaxNode | null = null;
  if (fn.type === "identifier" && b.modules.has(fn.text)) {
    method = "ok";
    strict = b.modules.get(fn.text) as boolean;
  } else if (fn.type === "identifier" && b.functions.has(fn.text)) {
    ({ method, strict } = b.functions.get(fn.text) as { method: string; strict: boolean });
    methodNode = fn;
  } else if (fn.type === "member_expression") {
    const object = fn.childForFieldName("object");
    const property = fn.childForFieldName("property");
    if (!object || !property || object.type !== "identifier" || !b.modules.has(object.text)) return undefined;
    method = property.text;
    strict = (b.modules.get(object.text) as boolean) || method.includes("Strict");
    methodNode = property;
  } else return undefined;
  const a = callArgs(call);
  const before = call.text;
  if (EQUALS.test(method) && a.length >= 2) {
    return expectedValueInversion(resolve(a[1] as SyntaxNode), strict, before);
  }
  if ((method === "throws" || method === "rejects") && a.length >= 2) {
    const expected = a[1] as SyntaxNode;
    if (expected.type === "string" || expected.text === "EvalError") return undefined; // a message, not a check
    return replacing(expected, before, "always", () => "EvalError");
  }
  if (
    (method === "throws" || method === "rejects") &&
    a.length === 1 &&
    methodNode?.type === "property_identifier"
  )
    return replacing(methodNode, before, "original-passed", () =>
      method === "throws" ? "doesNotThrow" : "doesNotReject",
    );
  if (method === "ok" && (a.length >= 2 || (a.length === 1 && !b.transpiled))) {
    const value = a[0] as SyntaxNode;
    return replacing(value, before, "original-passed", () => `!(${value.text})`);
  }
  const to = SWAP[method];
  if (to && methodNode?.type === "property_identifier")
    return replacing(methodNode, before, "original-passed", () => to);
  return undefined;
}
