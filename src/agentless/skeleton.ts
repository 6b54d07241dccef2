/**
 * A file's skeleton: what a reader needs to say which class or function an issue is about, at a
 * fraction of the file's tokens. Signatures, class and def headers and the first line of each
 * docstring stay; bodies become `...` (Python) or `{ … }` (TypeScript/JavaScript). The units it names
 * — `median`, `TtlCache.remaining` — are what the model picks from, with their lines, so the next
 * stage can show exactly their source.
 */
import { languageOf, type SyntaxLanguage, type SyntaxNode, withParsed } from "../syntax/index.js";

export interface CodeUnit {
  /** `name`, or `Class.method` for a method. */
  name: string;
  kind: "class" | "function" | "method";
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface Skeleton {
  text: string;
  units: CodeUnit[];
}

/** A top-level statement that is not a unit (an import, a constant) is shown by its first line, cut here. */
const MAX_STATEMENT_CHARS = 120;

/** The skeleton of `source`; undefined for a language tree-sitter does not parse here (the caller shows the file whole). */
export async function skeletonOf(path: string, source: string): Promise<Skeleton | undefined> {
  const language = languageOf(path);
  if (!language) return undefined;
  return withParsed(language, path, source, (root) => {
    const out: string[] = [];
    const units: CodeUnit[] = [];
    for (const node of root.namedChildren) if (node) visitTop(language, node, source, out, units);
    return { text: out.join("\n"), units };
  });
}

function visitTop(
  language: SyntaxLanguage,
  node: SyntaxNode,
  source: string,
  out: string[],
  units: CodeUnit[],
): void {
  const unit = unitNode(language, node);
  if (!unit) {
    if (node.type === "comment") return;
    const first = node.text.split("\n")[0] ?? "";
    out.push(first.length > MAX_STATEMENT_CHARS ? `${first.slice(0, MAX_STATEMENT_CHARS)}…` : first);
    return;
  }
  const name = unit.inner.childForFieldName("name")?.text ?? declaredName(unit.inner);
  if (!name) {
    out.push(node.text.split("\n")[0] ?? "");
    return;
  }
  const isClass = unit.inner.type.startsWith("class");
  units.push({ name, kind: isClass ? "class" : "function", ...lines(node) });
  out.push(header(language, node, unit.body, source, "", isClass));
  if (isClass && unit.body) {
    for (const member of unit.body.namedChildren) {
      if (!member) continue;
      const method = unitNode(language, member);
      if (!method) continue;
      const methodName = method.inner.childForFieldName("name")?.text;
      if (!methodName) continue;
      units.push({ name: `${name}.${methodName}`, kind: "method", ...lines(member) });
      out.push(header(language, member, method.body, source, indentOf(source, member), false));
    }
    out.push(language === "python" ? "" : "}");
  }
}

/** The node that is a unit (a decorated or exported one unwrapped), and its body. */
function unitNode(
  language: SyntaxLanguage,
  node: SyntaxNode,
): { inner: SyntaxNode; body: SyntaxNode | null } | undefined {
  let inner = node;
  if (inner.type === "decorated_definition" || inner.type === "export_statement") {
    const wrapped = inner.childForFieldName("definition") ?? inner.childForFieldName("declaration");
    if (!wrapped) return undefined;
    inner = wrapped;
  }
  const types =
    language === "python"
      ? ["function_definition", "class_definition"]
      : ["function_declaration", "generator_function_declaration", "class_declaration", "method_definition"];
  if (types.includes(inner.type)) return { inner, body: inner.childForFieldName("body") };
  // `const f = (…) => …` is a function too, and the commonest kind in TypeScript.
  if (inner.type === "lexical_declaration") {
    const declarator = inner.namedChildren.find((c) => c?.type === "variable_declarator");
    const value = declarator?.childForFieldName("value");
    if (value && (value.type === "arrow_function" || value.type === "function_expression"))
      return { inner, body: value.childForFieldName("body") };
  }
  return undefined;
}

function declaredName(node: SyntaxNode): string | undefined {
  const declarator = node.namedChildren.find((c) => c?.type === "variable_declarator");
  return declarator?.childForFieldName("name")?.text;
}

function lines(node: SyntaxNode): { startLine: number; endLine: number } {
  return { startLine: node.startPosition.row + 1, endLine: node.endPosition.row + 1 };
}

function indentOf(source: string, node: SyntaxNode): string {
  const lineStart = source.lastIndexOf("\n", node.startIndex - 1) + 1;
  return source.slice(lineStart, node.startIndex);
}

/** The unit's text up to its body, then the body elided: a docstring's first line kept (Python). */
function header(
  language: SyntaxLanguage,
  node: SyntaxNode,
  body: SyntaxNode | null,
  source: string,
  indent: string,
  isClass: boolean,
): string {
  const head = source.slice(node.startIndex, body ? body.startIndex : node.endIndex).trimEnd();
  // A class's members follow its header (and the closing brace them), so only a function's body is elided here.
  if (language !== "python") return `${indent}${head}${body ? (isClass ? " {" : " { … }") : ""}`;
  const inner = `${indent}    `;
  const doc = body ? docstringLine(body) : undefined;
  return [`${indent}${head}`, ...(doc ? [`${inner}${doc}`] : []), ...(isClass ? [] : [`${inner}...`])].join(
    "\n",
  );
}

function docstringLine(body: SyntaxNode): string | undefined {
  const first = body.namedChildren[0];
  const string = first?.type === "expression_statement" ? first.namedChildren[0] : undefined;
  if (string?.type !== "string") return undefined;
  const line = string.text.split("\n").find((l) => l.replace(/^[rbuf]*("""|'''|"|')/i, "").trim() !== "");
  const text = line
    ?.trim()
    .replace(/^[rbuf]*("""|'''|"|')/i, "")
    .replace(/("""|'''|"|')$/, "")
    .trim();
  return text ? `"""${text}"""` : undefined;
}
