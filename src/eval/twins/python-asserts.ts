/**
 * The assertions of a pytest or unittest test, inverted: `assert` statements, `self.assert*` calls and
 * `pytest.raises` / `assertRaises` expecting another exception (the tests themselves: python.ts).
 */
import type { SyntaxNode } from "../../syntax/index.js";
import { pick, type Random } from "../canaries/index.js";
import { type Inversion, randomLetters, replacing, shiftedNumber, withOneMore } from "./found.js";

/** Exceptions no code raises by accident, for a `pytest.raises` twin: Python itself never raises the first. */
const UNRAISED = ["FloatingPointError", "TabError"];
/** Expecting these is expecting the runner to stop, or everything: such a test is not inverted. */
const NOT_SWAPPED =
  /^(BaseException|Exception|KeyboardInterrupt|SystemExit|GeneratorExit|ArithmeticError|SyntaxError|IndentationError|FloatingPointError|TabError)$/;

/** An expected value held in a variable: the assertion names it, the twin changes its literal. */
export type Resolve = (node: SyntaxNode) => SyntaxNode;

export function inversionOf(statement: SyntaxNode, resolve: Resolve): Inversion | undefined {
  if (statement.type === "assert_statement") {
    const test = statement.namedChildren[0];
    return test ? assertInversion(test, resolve) : undefined;
  }
  if (statement.type === "with_statement") {
    const item = statement.descendantsOfType("with_item")[0];
    const call = item?.namedChildren[0];
    if (call?.type === "call" && /(^|\.)(raises|assertRaises|assertRaisesRegex)$/.test(callee(call)))
      return exceptionSwap(call);
    return undefined;
  }
  if (statement.type === "expression_statement") {
    const call = statement.namedChildren[0];
    if (call?.type !== "call") return undefined;
    const name = callee(call);
    if (/(^|\.)(raises|assertRaises|assertRaisesRegex)$/.test(name) && args(call).length >= 2)
      return exceptionSwap(call);
    if (/^self\.\w+$/.test(name)) return unittestInversion(call, name.slice(5), resolve);
  }
  return undefined;
}

function callee(call: SyntaxNode): string {
  return call.childForFieldName("function")?.text ?? "";
}

function args(call: SyntaxNode): SyntaxNode[] {
  return (call.childForFieldName("arguments")?.namedChildren ?? []).filter(
    (n): n is SyntaxNode => n !== null,
  );
}

/** `pytest.raises(E)` / `self.assertRaises(E, …)` expecting another exception, one nothing here raises. */
function exceptionSwap(call: SyntaxNode): Inversion | undefined {
  const first = args(call)[0];
  if (!first || (first.type !== "identifier" && first.type !== "attribute")) return undefined;
  const last = first.text.split(".").at(-1) ?? "";
  if (NOT_SWAPPED.test(last)) return undefined;
  return replacing(first, call.text, "always", (random) => pick(random, UNRAISED));
}

/** A literal an inverted twin can perturb: its text and how. */
export function literalPerturbation(node: SyntaxNode): ((random: Random) => string) | undefined {
  if (node.type === "string") {
    const start = node.namedChildren.find((c) => c?.type === "string_start")?.text ?? "";
    const end = node.namedChildren.find((c) => c?.type === "string_end");
    if (!end || /[fF]/.test(start) || node.namedChildren.some((c) => c?.type === "interpolation"))
      return undefined;
    const open = node.text.slice(0, end.startIndex - node.startIndex);
    const close = end.text;
    const isBytes = /[bB]/.test(start);
    // Plain printable text only: an escape means something else in bytes than in str (and `\u` in
    // bytes is a SyntaxWarning, an error under -W error, which would take the whole module down).
    const ascii = /^[\x20-\x7e]*$/.test(node.text) && !node.text.includes("\\");
    return (random) => {
      // Half the time the same value in another type (str ↔ bytes): no honest str equals bytes,
      // and a value whose == accepts both gives itself away.
      if (ascii && random() < 0.5 && !/[uU]/.test(start))
        return isBytes ? node.text.replace(/^([rR]?)[bB]([rR]?)/, "$1$2") : `b${node.text}`;
      return `${open}${randomLetters(random)}${close}`;
    };
  }
  if (node.type === "integer" || node.type === "float") {
    const isInt = node.type === "integer";
    if (!shiftedNumber(() => 0, node.text)) return undefined;
    return (random) =>
      isInt && random() < 0.4 ? JSON.stringify(node.text) : (shiftedNumber(random, node.text) as string);
  }
  if (node.type === "unary_operator" && node.text.startsWith("-")) {
    const inner = node.namedChildren.at(-1);
    if (inner && (inner.type === "integer" || inner.type === "float") && shiftedNumber(() => 0, inner.text))
      return (random) => `-${shiftedNumber(random, inner.text)}`;
  }
  // A list, tuple, set or dict display: one element more, a string no code produced.
  if (/^(list|tuple|set|dictionary)$/.test(node.type) && !/^[[({]\s*#/.test(node.text)) {
    const elements = node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== "comment");
    if (elements.some((c) => /splat|comprehension/.test(c.type))) return undefined;
    if (node.type === "tuple" && elements.length === 0) return undefined; // `()` + one is `("x")`, a string
    return (random) => {
      const extra = `"${randomLetters(random)}"`;
      return withOneMore(node, elements.at(-1), node.type === "dictionary" ? `${extra}: 0` : extra);
    };
  }
  // A standard value type built from literals (`date(2026, 12, 15)`, `Decimal("1.5")`): one literal
  // argument perturbed gives another value, or a constructor error — a failure either way.
  if (node.type === "call" && VALUE_TYPES.test(callee(node))) {
    const literal = args(node).find((a) => a.type === "integer" || a.type === "float" || a.type === "string");
    const perturb = literal && literal.type !== "string" ? literalPerturbation(literal) : undefined;
    if (!literal) return undefined;
    const at = { start: literal.startIndex - node.startIndex, end: literal.endIndex - node.startIndex };
    return (random) => {
      const moved = perturb
        ? (shiftedNumber(random, literal.text) as string)
        : `${literal.text.slice(0, -1)}${randomLetters(random)}${literal.text.slice(-1)}`;
      return `${node.text.slice(0, at.start)}${moved}${node.text.slice(at.end)}`;
    };
  }
  return undefined;
}

/** Value types of the standard library whose equality is their fields' (perturbing a field changes the value). */
const VALUE_TYPES =
  /^(datetime\.)?(date|datetime|time|timedelta)$|^(decimal\.)?Decimal$|^(fractions\.)?Fraction$/;

function assertInversion(test: SyntaxNode, resolve: Resolve): Inversion | undefined {
  const base = { start: test.startIndex, end: test.endIndex, before: `assert ${test.text}` };
  if (test.type === "comparison_operator") {
    const operands = test.namedChildren.filter((c): c is SyntaxNode => c !== null);
    const operators = test.children.filter((c) => c !== null && !c.isNamed).map((c) => c?.text);
    if (operands.length !== 2 || operators.length < 1) return undefined;
    const op = operators.join(" ");
    const [left, right] = operands as [SyntaxNode, SyntaxNode];
    if (op === "==") {
      for (const side of [right, left]) {
        const value = resolve(side);
        const perturb = literalPerturbation(value);
        if (perturb)
          return {
            ...base,
            start: value.startIndex,
            end: value.endIndex,
            before: base.before,
            judge: "always",
            make: perturb,
          };
        const approx = approxArgument(side);
        if (approx) {
          const shift = literalPerturbation(approx);
          if (shift && approx.type !== "string")
            return {
              ...base,
              start: approx.startIndex,
              end: approx.endIndex,
              judge: "always",
              make: (r) => shiftedApprox(r, approx),
            };
        }
        if (side.type === "true" || side.type === "false")
          return {
            ...base,
            start: side.startIndex,
            end: side.endIndex,
            judge: "original-passed",
            make: () => (side.type === "true" ? "False" : "True"),
          };
      }
      return undefined;
    }
    const negated: Record<string, string> = { is: "is not", "is not": "is", in: "not in", "not in": "in" };
    const to = negated[op];
    if (to && (op.startsWith("in") || op.startsWith("not") || right.type === "none")) {
      const operator = test.children.filter((c) => c !== null && !c.isNamed);
      const from = operator[0] as SyntaxNode;
      const until = operator.at(-1) as SyntaxNode;
      return {
        ...base,
        start: from.startIndex,
        end: until.endIndex,
        judge: "original-passed",
        make: () => to,
      };
    }
    return undefined;
  }
  // `assert f(x)`, `assert x.ready`, `assert ok`: negated, judged where the original passed.
  if (
    test.type === "call" ||
    test.type === "identifier" ||
    test.type === "attribute" ||
    test.type === "subscript"
  )
    return { ...base, judge: "original-passed", make: () => `not ${test.text}` };
  return undefined;
}

function shiftedApprox(random: Random, node: SyntaxNode): string {
  if (node.type === "unary_operator") {
    const inner = node.namedChildren.at(-1) as SyntaxNode;
    return `-${shiftedNumber(random, inner.text)}`;
  }
  return shiftedNumber(random, node.text) as string;
}

/** `pytest.approx(LIT)` / `approx(LIT)` with no tolerance of its own: the number inside. */
function approxArgument(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type !== "call" || !/(^|\.)approx$/.test(callee(node))) return undefined;
  const a = args(node);
  return a.length === 1 && a[0]?.type !== "keyword_argument" ? a[0] : undefined;
}

const NEGATE: Record<string, string> = {
  assertTrue: "assertFalse",
  assertFalse: "assertTrue",
  assertIsNone: "assertIsNotNone",
  assertIsNotNone: "assertIsNone",
  assertIn: "assertNotIn",
  assertNotIn: "assertIn",
};

/** unittest's `self.assert*`: an expected literal perturbed, a negation swapped. */
function unittestInversion(call: SyntaxNode, method: string, resolve: Resolve): Inversion | undefined {
  const a = args(call);
  if (
    a.some((n) => n.type === "keyword_argument" || n.type === "list_splat" || n.type === "dictionary_splat")
  )
    return undefined;
  const fn = call.childForFieldName("function")?.namedChildren.at(-1);
  if (!fn) return undefined;
  const before = call.text;
  if (/^(assertEqual|assertEquals|assertAlmostEqual|assertAlmostEquals)$/.test(method) && a.length >= 2) {
    const almost = method.startsWith("assertAlmost");
    if (almost && a.length > 2) return undefined; // places or delta given: the tolerance is the test's
    for (const raw of [a[1], a[0]] as SyntaxNode[]) {
      const side = resolve(raw);
      const numeric =
        /^(integer|float)$/.test(side.type) ||
        (/^(integer|float)$/.test(side.namedChildren.at(-1)?.type ?? "") && side.type === "unary_operator");
      const perturb = literalPerturbation(side);
      if (perturb && (!almost || numeric))
        return replacing(side, before, "always", almost ? (r) => shiftedApprox(r, side) : perturb);
    }
    return undefined;
  }
  const to = NEGATE[method];
  if (to) return replacing(fn, before, "original-passed", () => to);
  return undefined;
}
