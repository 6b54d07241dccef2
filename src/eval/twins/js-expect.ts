/** The expect() reader: `expect(x).toBe(LIT)` and its kin, inverted. */
import type { SyntaxNode } from "../../syntax/index.js";
import { type Inversion, replacing, shiftedNumber } from "./found.js";
import { callArgs, expectedValueInversion, type Resolve } from "./js-values.js";

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
export function expectInversion(call: SyntaxNode, resolve: Resolve): Inversion | undefined {
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
    if (moved) return replacing(expected, before, "always", (r) => shiftedNumber(r, expected.text) as string);
    return undefined;
  }
  if ((m === "toThrow" || m === "toThrowError") && a.length === 1 && a[0]?.text !== "EvalError") {
    const expected = a[0] as SyntaxNode;
    return replacing(expected, before, "always", () => "EvalError");
  }
  const to = EXPECT_NEGATE[m];
  if (to && a.length === 0 && !chained) return replacing(matcher, before, "original-passed", () => to);
  return undefined;
}
