import { type SyntaxNode, walk, withParsed } from "../syntax/index.js";
import type { BuilderLanguage } from "./paths.js";

/** The kinds of bug synth plants, as SWE-smith's procedural modifications name them. */
export type MutationKind =
  | "comparison flip"
  | "off-by-one"
  | "dropped condition"
  | "swapped arguments"
  | "removed from None"
  | "wrong default"
  | "arithmetic swap";

/** One planted bug: replace [start, end) of `file` (text `before`) with `after`. */
export interface Mutation {
  file: string;
  kind: MutationKind;
  start: number;
  end: number;
  before: string;
  after: string;
  /** 1-based line of the change, for the summary. */
  line: number;
}

const FLIP: Record<string, string> = {
  "<": ">=",
  ">=": "<",
  ">": "<=",
  "<=": ">",
  "==": "!=",
  "!=": "==",
  "===": "!==",
  "!==": "===",
  in: "not in",
  "not in": "in",
  is: "is not",
  "is not": "is",
};
const ARITHMETIC: Record<string, string> = { "+": "-", "-": "+" };
const FUNCTIONS = new Set([
  "function_definition",
  "function_declaration",
  "generator_function_declaration",
  "method_definition",
  "arrow_function",
  "function_expression",
  "function",
]);

function insideFunction(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    // Types are not behaviour: `<` in a generic or a number in a literal type is no bug.
    if (p.type === "type_annotation" || p.type === "type_arguments" || p.type === "type_alias_declaration")
      return false;
    if (FUNCTIONS.has(p.type)) return true;
  }
  return false;
}

function replace(file: string, kind: MutationKind, node: SyntaxNode, after: string): Mutation {
  return {
    file,
    kind,
    start: node.startIndex,
    end: node.endIndex,
    before: node.text,
    after,
    line: node.startPosition.row + 1,
  };
}

function bumpNumber(text: string): string | undefined {
  return /^\d+$/.test(text) ? String(Number(text) + 1) : undefined;
}

function flipLiteral(node: SyntaxNode): string | undefined {
  const t = node.text;
  if (t === "True" || t === "true") return t === "True" ? "False" : "false";
  if (t === "False" || t === "false") return t === "False" ? "True" : "true";
  return bumpNumber(t);
}

/** Operator tokens of a binary/comparison node: its anonymous children. */
function operators(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c && !c.isNamed) out.push(c);
  }
  return out;
}

/** The mutations tree-sitter finds in one source file, inside function bodies, in source order. */
export async function mutationSites(
  language: BuilderLanguage,
  file: string,
  source: string,
): Promise<Mutation[]> {
  const found = await withParsed(language, file, source, (root) => {
    const out: Mutation[] = [];
    const py = language === "python";
    for (const node of walk(root)) {
      if (!insideFunction(node)) continue;
      switch (node.type) {
        case "comparison_operator":
        case "binary_expression":
        case "binary_operator":
        case "boolean_operator": {
          for (const op of operators(node)) {
            const flipped = FLIP[op.type];
            if (flipped) out.push(replace(file, "comparison flip", op, flipped));
            const swapped = ARITHMETIC[op.type];
            if (swapped) out.push(replace(file, "arithmetic swap", op, swapped));
            if (["and", "or", "&&", "||"].includes(op.type)) {
              const left = node.childForFieldName("left");
              if (left) out.push(replace(file, "dropped condition", node, left.text));
            }
          }
          break;
        }
        case "not_operator":
        case "unary_expression": {
          const arg = node.childForFieldName("argument");
          const op = operators(node)[0]?.type;
          if (arg && (op === "not" || op === "!"))
            out.push(replace(file, "dropped condition", node, arg.text));
          break;
        }
        case "integer":
        case "number": {
          const bumped = bumpNumber(node.text);
          const parent = node.parent?.type ?? "";
          if (bumped && !/default|parameter|pattern/.test(parent))
            out.push(replace(file, "off-by-one", node, bumped));
          break;
        }
        case "argument_list":
        case "arguments": {
          const args = node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== "comment");
          const [a, b] = args;
          const plain = (n: SyntaxNode) => !/keyword_argument|splat|spread/.test(n.type);
          if (a && b && plain(a) && plain(b) && a.text !== b.text)
            out.push({
              file,
              kind: "swapped arguments",
              start: a.startIndex,
              end: b.endIndex,
              before: source.slice(a.startIndex, b.endIndex),
              after: `${b.text}, ${a.text}`,
              line: a.startPosition.row + 1,
            });
          break;
        }
        case "raise_statement": {
          const cause = node.childForFieldName("cause");
          const raised = node.namedChildren[0];
          if (py && cause?.type === "none" && raised && raised !== cause)
            out.push({
              file,
              kind: "removed from None",
              start: raised.endIndex,
              end: cause.endIndex,
              before: source.slice(raised.endIndex, cause.endIndex),
              after: "",
              line: cause.startPosition.row + 1,
            });
          break;
        }
        case "default_parameter":
        case "typed_default_parameter":
        case "required_parameter":
        case "optional_parameter":
        case "assignment_pattern": {
          const value = node.childForFieldName(node.type === "assignment_pattern" ? "right" : "value");
          const wrong = value && flipLiteral(value);
          if (value && wrong) out.push(replace(file, "wrong default", value, wrong));
          break;
        }
      }
    }
    return out;
  });
  return found ?? [];
}

/** The source with the mutation applied. */
export function applyMutation(source: string, m: Mutation): string {
  return source.slice(0, m.start) + m.after + source.slice(m.end);
}
