/**
 * What both JavaScript assertion readers (node:assert, js-assert.ts; expect(), js-expect.ts) do to an
 * expected value: perturb a literal, flip a boolean.
 */
import type { SyntaxNode } from "../../syntax/index.js";
import type { Random } from "../canaries/index.js";
import { type Inversion, randomLetters, replacing, shiftedNumber, withOneMore } from "./found.js";

/** An expected value held in a variable: the assertion names it, the twin changes its literal. */
export type Resolve = (node: SyntaxNode) => SyntaxNode;

export function callArgs(call: SyntaxNode): SyntaxNode[] {
  return (call.childForFieldName("arguments")?.namedChildren ?? []).filter(
    (n): n is SyntaxNode => n !== null,
  );
}

/** An expected literal, perturbed: another string, a number moved far, or (strictly compared) a number as a string. */
export function perturbation(node: SyntaxNode, strict: boolean): ((random: Random) => string) | undefined {
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

/**
 * An equality's expected value inverted: a literal perturbed (always judged), or a boolean flipped
 * (judged only where the original passed); undefined when the value is neither.
 */
export function expectedValueInversion(
  expected: SyntaxNode,
  strict: boolean,
  before: string,
): Inversion | undefined {
  const perturb = perturbation(expected, strict);
  if (perturb) return replacing(expected, before, "always", perturb);
  if (expected.type === "true" || expected.type === "false")
    return replacing(expected, before, "original-passed", () =>
      expected.type === "true" ? "false" : "true",
    );
  return undefined;
}
