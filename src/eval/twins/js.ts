import { type SyntaxNode, walk } from "../../syntax/index.js";
import type { Random } from "../canaries/index.js";
import { type FoundTest, type Inversion, once, randomLetters, shiftedNumber, withOneMore } from "./found.js";

/** How the file imports node:assert: local names bound to the module, and to its functions. */
interface AssertBindings {
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

function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === "string")
    return node.text.slice(1, -1).includes("\\") ? undefined : node.text.slice(1, -1);
  if (node.type === "template_string" && node.namedChildren.length === 0) return node.text.slice(1, -1);
  return undefined;
}

function assertBindings(root: SyntaxNode): AssertBindings {
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

const TEST_FNS = new Set(["test", "it", "specify"]);
const SUITE_FNS = new Set(["describe", "suite", "context"]);
const SELF_AWARE =
  /\b(expect\.getState|currentTestName|testPath|fullName|task\.name|ctx\.task|context\.task|t\.name|t\.fullName|toMatchSnapshot|toMatchInlineSnapshot|toThrowErrorMatchingSnapshot|toThrowErrorMatchingInlineSnapshot|toMatchFileSnapshot|assert\.snapshot|t\.assert\.snapshot)\b/;

/**
 * The tests of a node:test, jest, vitest or mocha file, read from its syntax tree: `test("…", fn)` and
 * `it("…", fn)` statements (ids joined by " > ", or by spaces as mocha's full titles are), at the top or inside `describe("…", fn)` blocks with plain-string titles,
 * each with the assertions (node:assert, expect) an inverted twin may change.
 */
export function jsTests(root: SyntaxNode, text: string, join = " > ", transpiled = false): FoundTest[] {
  const bindings = { ...assertBindings(root), transpiled };
  const found: FoundTest[] = [];
  const visit = (block: SyntaxNode, suites: string[]) => {
    for (const statement of block.namedChildren) {
      if (statement?.type !== "expression_statement") continue;
      const call = statement.namedChildren[0];
      if (call?.type !== "call_expression") continue;
      const fn = call.childForFieldName("function")?.text ?? "";
      const a = (call.childForFieldName("arguments")?.namedChildren ?? []).filter(
        (n): n is SyntaxNode => n !== null,
      );
      const title = stringValue(a[0]);
      const callback = a
        .slice(1)
        .findLast((n) => n.type === "arrow_function" || n.type === "function_expression");
      if (title === undefined || !callback) continue;
      const body = callback.childForFieldName("body");
      if (!body) continue;
      if (SUITE_FNS.has(fn)) {
        if (body.type === "statement_block" && suites.length < 4) visit(body, [...suites, title]);
      } else if (TEST_FNS.has(fn)) {
        const test = jsTest(
          statement,
          a[0] as SyntaxNode,
          title,
          callback,
          body,
          text,
          suites,
          bindings,
          join,
        );
        found.push(test);
      }
    }
  };
  visit(root, []);
  // A title that is some other call's first argument too (a helper, a second test of the same id)
  // may be how the test is found or run: no twin.
  const ids = new Map<string, number>();
  for (const t of found) ids.set(t.id, (ids.get(t.id) ?? 0) + 1);
  const sameTitle = new Map<string, number>();
  for (const t of found) sameTitle.set(t.name, (sameTitle.get(t.name) ?? 0) + 1);
  for (const t of found) {
    if ((ids.get(t.id) ?? 0) > 1) t.blocked = "another test in the file has the same id";
    // Read only for a drawn test: a scan of the whole file per test would be most of planning.
    const analyse = t.analyse;
    t.analyse = once(() =>
      quotedCount(text, t.name) > (sameTitle.get(t.name) ?? 0)
        ? { blocked: "its title is used elsewhere in the file", inversions: [], noInversion: null }
        : analyse(),
    );
  }
  return found;
}

/** How often the title is written as a string literal in the file (any quotes): a look at the text, not a rewrite. */
function quotedCount(text: string, title: string): number {
  let count = 0;
  for (const q of ['"', "'", "`"]) count += text.split(`${q}${title}${q}`).length - 1;
  return count;
}

function jsTest(
  statement: SyntaxNode,
  titleNode: SyntaxNode,
  title: string,
  callback: SyntaxNode,
  body: SyntaxNode,
  text: string,
  suites: string[],
  bindings: AssertBindings,
  join: string,
): FoundTest {
  const lineStart = text.lastIndexOf("\n", statement.startIndex - 1) + 1;
  const indent = text.slice(lineStart, statement.startIndex);
  const quote = titleNode.text[0] ?? '"';
  const analyse = once(() => {
    let blocked: string | null = null;
    if (!/^[ \t]*$/.test(indent)) blocked = "it shares its line with other code";
    else if (SELF_AWARE.test(callback.text))
      blocked = "it reads its own name or data kept under it (snapshots)";
    else if (hasNestedTests(body)) blocked = "it declares subtests";
    else if (writesOuterState(callback))
      blocked = "it assigns to variables outside the test, so it depends on the order tests run in";
    const inversions = blocked ? [] : jsInversions(body, bindings);
    return {
      blocked,
      inversions,
      noInversion:
        inversions.length > 0
          ? null
          : "no assertion it always reaches compares with a literal, expects an error class or can be negated",
    };
  });
  const id = (name: string) => [...suites, name].join(join);
  return {
    id: id(title),
    name: title,
    whole: { start: statement.startIndex, end: statement.endIndex },
    indent,
    nameAt: { start: titleNode.startIndex, end: titleNode.endIndex },
    writeName: (n) => `${quote}${n}${quote}`,
    idFor: id,
    separator: " ",
    blocked: null,
    analyse,
  };
}

function hasNestedTests(body: SyntaxNode): boolean {
  for (const node of walk(body)) {
    if (node.type !== "call_expression") continue;
    const fn = node.childForFieldName("function")?.text ?? "";
    // A test or suite declared inside: a call of that name with a callback (`describe(value)` is not).
    const callback = node
      .childForFieldName("arguments")
      ?.namedChildren.some((a) => a?.type === "arrow_function" || a?.type === "function_expression");
    if (callback && /^(test|it|describe|suite|\w+\.test)$/.test(fn)) return true;
  }
  return false;
}

/** Does the callback assign to a variable it does not declare (state shared with other tests)? */
function writesOuterState(callback: SyntaxNode): boolean {
  const declared = new Set<string>();
  for (const node of walk(callback)) {
    if (
      node.type === "variable_declarator" ||
      node.type === "required_parameter" ||
      node.type === "function_declaration"
    ) {
      const name =
        node.childForFieldName("name") ?? node.childForFieldName("pattern") ?? node.namedChildren[0];
      if (name)
        for (const id of walk(name))
          if (id.type === "identifier" || id.type === "shorthand_property_identifier_pattern")
            declared.add(id.text);
    }
    if (node.type === "formal_parameters")
      for (const id of walk(node)) if (id.type === "identifier") declared.add(id.text);
  }
  for (const node of walk(callback)) {
    const target =
      node.type === "assignment_expression" || node.type === "augmented_assignment_expression"
        ? node.childForFieldName("left")
        : node.type === "update_expression"
          ? node.childForFieldName("argument")
          : null;
    if (target?.type === "identifier" && !declared.has(target.text)) return true;
  }
  return false;
}

/** The callback's own statements every run reaches: before any return, not inside a branch or loop. */
function jsInversions(body: SyntaxNode, bindings: AssertBindings): Inversion[] {
  const statements = body.type === "statement_block" ? body.namedChildren : [body];
  const out: Inversion[] = [];
  const held = new Map<string, SyntaxNode>();
  const resolve: Resolve = (n) => (n.type === "identifier" ? (held.get(n.text) ?? n) : n);
  for (const s of statements) {
    if (!s) continue;
    const value = expectedValue(s, body);
    if (value) held.set(value.name, value.value);
    if (
      s.type === "return_statement" ||
      [...walk(s)].some((n) => n.type === "return_statement" && !insideFunction(n, s))
    )
      break;
    let expr: SyntaxNode | null | undefined = s.type === "expression_statement" ? s.namedChildren[0] : s;
    const awaited = expr?.type === "await_expression";
    if (awaited) expr = expr?.namedChildren[0];
    if (expr?.type !== "call_expression") continue;
    const found = assertInversion(expr, bindings, resolve) ?? expectInversion(expr, resolve);
    // A promise assertion nobody awaits settles after the test has passed, whatever it asserts: its
    // inversion would pass too.
    if (found && (awaited || !settlesLater(expr, bindings))) out.push(found);
  }
  return out;
}

/** An expected value held in a variable: the assertion names it, the twin changes its literal. */
type Resolve = (node: SyntaxNode) => SyntaxNode;

/**
 * `const expected = [1, 2];` at the top of the body, the name used once more and nowhere else: it only
 * carries the expected value to its assertion, so perturbing its literal changes nothing else.
 */
function expectedValue(
  statement: SyntaxNode,
  body: SyntaxNode,
): { name: string; value: SyntaxNode } | undefined {
  if (statement.type !== "lexical_declaration" && statement.type !== "variable_declaration") return undefined;
  const declarators = statement.namedChildren.filter((c) => c?.type === "variable_declarator");
  if (declarators.length !== 1) return undefined;
  const name = declarators[0]?.childForFieldName("name");
  const value = declarators[0]?.childForFieldName("value");
  if (name?.type !== "identifier" || !value || !perturbation(value, true)) return undefined;
  const uses = body.descendantsOfType("identifier").filter((n) => n?.text === name.text).length;
  return uses === 2 ? { name: name.text, value } : undefined;
}

/** `assert.rejects(…)`, `expect(p).resolves.toBe(…)`: assertions that settle when their promise does. */
function settlesLater(call: SyntaxNode, b: AssertBindings): boolean {
  const fn = call.childForFieldName("function");
  if (!fn) return false;
  if (fn.type === "identifier")
    return /^(rejects|doesNotReject)$/.test(b.functions.get(fn.text)?.method ?? "");
  return /\.(rejects|doesNotReject)$|\.(resolves|rejects)\.\w+$/.test(fn.text);
}

function insideFunction(node: SyntaxNode, top: SyntaxNode): boolean {
  for (let p = node.parent; p && p.id !== top.id; p = p.parent)
    if (/function|arrow_function|method_definition/.test(p.type)) return true;
  return false;
}

function callArgs(call: SyntaxNode): SyntaxNode[] {
  return (call.childForFieldName("arguments")?.namedChildren ?? []).filter(
    (n): n is SyntaxNode => n !== null,
  );
}

/** An expected literal, perturbed: another string, a number moved far, or (strictly compared) a number as a string. */
function perturbation(node: SyntaxNode, strict: boolean): ((random: Random) => string) | undefined {
  if (node.type === "string" || (node.type === "template_string" && node.namedChildren.length === 0)) {
    const close = node.text.at(-1) as string;
    return (random) => `${node.text.slice(0, -1)}${randomLetters(random)}${close}`;
  }
  if (node.type === "number" && shiftedNumber(() => 0, node.text))
    return (random) =>
      strict && random() < 0.4 ? JSON.stringify(node.text) : (shiftedNumber(random, node.text) as string);
  if (node.type === "unary_expression" && node.text.startsWith("-")) {
    const inner = node.namedChildren.at(-1);
    if (inner?.type === "number" && shiftedNumber(() => 0, inner.text))
      return (random) => `-${shiftedNumber(random, inner.text)}`;
  }
  // An array or object literal: one element (or property) more that no code produced.
  if (node.type === "array" || node.type === "object") {
    const elements = node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== "comment");
    if (elements.some((c) => /spread/.test(c.type))) return undefined;
    return (random) => {
      const extra = `"${randomLetters(random)}"`;
      return withOneMore(node, elements.at(-1), node.type === "object" ? `${extra}: 0` : extra);
    };
  }
  return undefined;
}

const EQUALS = /^(equal|strictEqual|deepEqual|deepStrictEqual)$/;
const SWAP: Record<string, string> = {
  ok: "",
  match: "doesNotMatch",
  doesNotMatch: "match",
};

function assertInversion(call: SyntaxNode, b: AssertBindings, resolve: Resolve): Inversion | undefined {
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
    return {
      start: expected.startIndex,
      end: expected.endIndex,
      before,
      judge: "always",
      make: () => "EvalError",
    };
  }
  if (
    (method === "throws" || method === "rejects") &&
    a.length === 1 &&
    methodNode?.type === "property_identifier"
  )
    return {
      start: methodNode.startIndex,
      end: methodNode.endIndex,
      before,
      judge: "original-passed",
      make: () => (method === "throws" ? "doesNotThrow" : "doesNotReject"),
    };
  if (method === "ok" && (a.length >= 2 || (a.length === 1 && !b.transpiled))) {
    const value = a[0] as SyntaxNode;
    return {
      start: value.startIndex,
      end: value.endIndex,
      before,
      judge: "original-passed",
      make: () => `!(${value.text})`,
    };
  }
  const to = SWAP[method];
  if (to && methodNode?.type === "property_identifier")
    return {
      start: methodNode.startIndex,
      end: methodNode.endIndex,
      before,
      judge: "original-passed",
      make: () => to,
    };
  return undefined;
}

const EXPECT_NEGATE: Record<string, string> = {
  toBeTruthy: "toBeFalsy",
  toBeFalsy: "toBeTruthy",
  toBeDefined: "toBeUndefined",
  toBeUndefined: "toBeDefined",
  toBeNull: "not.toBeNull",
  toBeNaN: "not.toBeNaN",
  toThrow: "not.toThrow",
  toThrowError: "not.toThrowError",
};

/** `expect(x).toBe(LIT)`, `.toEqual`, `.toStrictEqual`, `.toBeCloseTo`, `.toThrow(E)` and the negatable matchers. */
function expectInversion(call: SyntaxNode, resolve: Resolve): Inversion | undefined {
  const fn = call.childForFieldName("function");
  if (fn?.type !== "member_expression") return undefined;
  const matcher = fn.childForFieldName("property");
  let subject = fn.childForFieldName("object");
  if (!matcher || !subject) return undefined;
  const chained = subject.type === "member_expression";
  if (chained && /^(resolves|rejects)$/.test(subject.childForFieldName("property")?.text ?? ""))
    subject = subject.childForFieldName("object");
  if (subject?.type !== "call_expression" || subject.childForFieldName("function")?.text !== "expect")
    return undefined;
  const a = callArgs(call);
  const before = call.text;
  const m = matcher.text;
  if (/^(toBe|toEqual|toStrictEqual)$/.test(m) && a.length === 1) {
    return expectedValueInversion(resolve(a[0] as SyntaxNode), true, before);
  }
  if (m === "toBeCloseTo" && a.length === 1) {
    const expected = a[0] as SyntaxNode;
    const moved = expected.type === "number" ? shiftedNumber(() => 0, expected.text) : null;
    if (moved)
      return {
        start: expected.startIndex,
        end: expected.endIndex,
        before,
        judge: "always",
        make: (r) => shiftedNumber(r, expected.text) as string,
      };
    return undefined;
  }
  if ((m === "toThrow" || m === "toThrowError") && a.length === 1 && a[0]?.text !== "EvalError") {
    const expected = a[0] as SyntaxNode;
    return {
      start: expected.startIndex,
      end: expected.endIndex,
      before,
      judge: "always",
      make: () => "EvalError",
    };
  }
  const to = EXPECT_NEGATE[m];
  if (to && a.length === 0 && !chained)
    return {
      start: matcher.startIndex,
      end: matcher.endIndex,
      before,
      judge: "original-passed",
      make: () => to,
    };
  return undefined;
}

/**
 * An equality's expected value inverted: a literal perturbed (always judged), or a boolean flipped
 * (judged only where the original passed); undefined when the value is neither.
 */
function expectedValueInversion(
  expected: SyntaxNode,
  strict: boolean,
  before: string,
): Inversion | undefined {
  const perturb = perturbation(expected, strict);
  if (perturb)
    return { start: expected.startIndex, end: expected.endIndex, before, judge: "always", make: perturb };
  if (expected.type === "true" || expected.type === "false")
    return {
      start: expected.startIndex,
      end: expected.endIndex,
      before,
      judge: "original-passed",
      make: () => (expected.type === "true" ? "false" : "true"),
    };
  return undefined;
}
