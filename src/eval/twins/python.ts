import type { SyntaxNode } from "../../syntax/index.js";
import { type FoundTest, type Inversion, once } from "./found.js";
import { inversionOf, literalPerturbation, type Resolve } from "./python-asserts.js";

/**
 * The tests of a pytest module, read from its syntax tree: module-level `def test_…` and the test
 * methods of classes (pytest-style and unittest.TestCase alike), decorators included, each with the
 * assertions an inverted twin may change.
 */
export function pythonTests(root: SyntaxNode, text: string, path: string): FoundTest[] {
  const found: FoundTest[] = [];
  const visit = (block: SyntaxNode, classes: string[]) => {
    for (const node of block.namedChildren) {
      if (!node) continue;
      const def = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
      if (!def) continue;
      const name = def.childForFieldName("name");
      if (!name) continue;
      if (def.type === "class_definition") {
        const body = def.childForFieldName("body");
        if (body && classes.length < 3) visit(body, [...classes, name.text]);
      } else if (def.type === "function_definition" && name.text.startsWith("test")) {
        const test = pythonTest(node, def, name, text, path, classes);
        if (test) found.push(test);
      }
    }
  };
  visit(root, []);
  // Two tests of one id: the later definition replaces the earlier, which a copy would bring back.
  const ids = new Map<string, number>();
  for (const t of found) ids.set(t.id, (ids.get(t.id) ?? 0) + 1);
  for (const t of found) if ((ids.get(t.id) ?? 0) > 1) t.blocked = "another test in the file has the same id";
  return found;
}

/** Tests that read their own name or their place in the run: a copy of them is not the same test. */
const SELF_AWARE =
  /\b(request|_testMethodName|_getframe|currentframe|__qualname__|__name__|inspect\.stack|subTest|\w*snapshot\w*|\w*_regression|\w*datadir)\b|\bself\.id\s*\(/i;
/** Decorators that tie a test to its name or to others (ordering, dependencies) or draw examples at random. */
const TIED = /\b(dependency|depends|order|incremental|given|example|flaky|repeat|run)\b/;

function pythonTest(
  whole: SyntaxNode,
  def: SyntaxNode,
  name: SyntaxNode,
  text: string,
  path: string,
  classes: string[],
): FoundTest | undefined {
  const lineStart = text.lastIndexOf("\n", whole.startIndex - 1) + 1;
  const indent = text.slice(lineStart, whole.startIndex);
  if (!/^[ \t]*$/.test(indent)) return undefined;
  const prefix = [path, ...classes].join("::");
  const decorators =
    whole.type === "decorated_definition" ? whole.text.slice(0, def.startIndex - whole.startIndex) : "";
  const analyse = once(() => {
    const body = def.childForFieldName("body");
    const bodyText = body?.text ?? "";
    let blocked: string | null = null;
    if (SELF_AWARE.test(bodyText) || SELF_AWARE.test(def.childForFieldName("parameters")?.text ?? ""))
      blocked =
        "it reads its own name or data kept under it (request, self.id(), snapshots, regression files…)";
    else if (TIED.test(decorators))
      blocked = "its decorators tie it to its name, to other tests or to random examples";
    else if (/^\s*(global|nonlocal)\b/m.test(bodyText)) blocked = "it changes module state (global)";
    else if (countWord(text, name.text) > countDefs(text, name.text))
      blocked = "its name is used elsewhere in the file (not only where a test of that name is defined)";
    const inversions = body && !blocked ? pythonInversions(body) : [];
    return {
      blocked,
      inversions,
      noInversion:
        inversions.length > 0
          ? null
          : "no assertion it always reaches compares with a literal, expects an exception class or can be negated",
    };
  });
  return {
    id: `${prefix}::${name.text}`,
    name: name.text,
    whole: { start: whole.startIndex, end: whole.endIndex },
    indent,
    nameAt: { start: name.startIndex, end: name.endIndex },
    writeName: (n) => n,
    idFor: (n) => `${prefix}::${n}`,
    separator: "_",
    blocked: null,
    analyse,
  };
}

function countWord(text: string, word: string): number {
  return text.match(new RegExp(`\\b${word}\\b`, "g"))?.length ?? 0;
}

/** Definitions of `name` (a method of that name in several classes is several tests, not a reference). */
function countDefs(text: string, name: string): number {
  return text.match(new RegExp(`\\bdef\\s+${name}\\s*\\(`, "g"))?.length ?? 0;
}

/**
 * The assertions of a test body that every run of the test reaches: its own top-level statements (not
 * inside an if, a loop, a try or another with), before any return or yield. Changing one that is not
 * always reached would let honest code pass the "inverted" twin.
 */
function pythonInversions(body: SyntaxNode): Inversion[] {
  const out: Inversion[] = [];
  const expected = new Map<string, SyntaxNode>();
  const resolve: Resolve = (n) => (n.type === "identifier" ? (expected.get(n.text) ?? n) : n);
  for (const statement of body.namedChildren) {
    if (!statement) continue;
    if (mayLeave(statement)) break;
    const held = expectedValue(statement, body);
    if (held) expected.set(held.name, held.value);
    const found = inversionOf(statement, resolve);
    if (found) out.push(found);
  }
  return out;
}

/**
 * `expected = [10, 0, 11]` at the top of the body, the name used once more and nowhere else: a
 * variable that only carries the expected value to its assertion, so perturbing its literal changes
 * that assertion and nothing else (an input the test also passes to the code would move the result too).
 */
function expectedValue(
  statement: SyntaxNode,
  body: SyntaxNode,
): { name: string; value: SyntaxNode } | undefined {
  const assignment = statement.type === "expression_statement" ? statement.namedChildren[0] : undefined;
  if (assignment?.type !== "assignment") return undefined;
  const [left, right] = [assignment.childForFieldName("left"), assignment.childForFieldName("right")];
  if (left?.type !== "identifier" || !right || !literalPerturbation(right)) return undefined;
  const uses = body.descendantsOfType("identifier").filter((n) => n?.text === left.text).length;
  return uses === 2 ? { name: left.text, value: right } : undefined;
}

/** Does the statement hold a return or yield of the test itself (not of a nested def or lambda)? */
function mayLeave(node: SyntaxNode): boolean {
  if (node.type === "return_statement" || node.type === "yield") return true;
  if (node.type === "function_definition" || node.type === "lambda" || node.type === "class_definition")
    return false;
  return node.namedChildren.some((c) => c !== null && mayLeave(c));
}
