/**
 * The JavaScript twins reader: the tests a file declares (test/it inside describe/suite), and for each
 * the inversions of the assertions every run reaches. The assertion readers are js-assert.ts
 * (node:assert) and js-expect.ts (expect()); what both do to an expected value is js-values.ts.
 */
import { type SyntaxNode, walk } from "../../syntax/index.js";
import { type FoundTest, type Inversion, once } from "./found.js";
import {
  type AssertBindings,
  assertBindings,
  assertInversion,
  settlesLater,
  stringValue,
} from "./js-assert.js";
import { expectInversion } from "./js-expect.js";
import { perturbation, type Resolve } from "./js-values.js";

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

function insideFunction(node: SyntaxNode, top: SyntaxNode): boolean {
  for (let p = node.parent; p && p.id !== top.id; p = p.parent)
    if (/function|arrow_function|method_definition/.test(p.type)) return true;
  return false;
}
