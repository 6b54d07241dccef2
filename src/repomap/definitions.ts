/**
 * What a file defines, read off its syntax tree: one visitor per language over the top level and the
 * bodies of classes, impls, traits and interfaces (where methods live). Nested functions and locals
 * are not definitions here: nothing in another file can name them.
 */
import type { CodeLanguage, SyntaxNode } from "../syntax/index.js";

export type DefinitionKind =
  | "class"
  | "function"
  | "method"
  | "interface"
  | "type"
  | "struct"
  | "enum"
  | "trait"
  | "const"
  | "module"
  | "macro";

/** A header line shown above a member so the reader sees what it belongs to (`class Cart:`, `impl Area for Point {`). */
export interface DefinitionContext {
  line: number;
  signature: string;
}

export interface Definition {
  name: string;
  kind: DefinitionKind;
  /** 1-based line of the definition's name. */
  line: number;
  /** That line of source, indentation kept, cut at MAX_SIGNATURE_CHARS. */
  signature: string;
  /** The class, interface, trait or receiver type a method belongs to. */
  parent?: string;
  /** The enclosing block's header in this file, when there is one. */
  context?: DefinitionContext;
}

/** A one-line signature longer than this is a minified line or a data literal, not something to read whole. */
export const MAX_SIGNATURE_CHARS = 160;

interface Scope {
  parent: string;
  context: DefinitionContext | undefined;
}

type Visit = (node: SyntaxNode, scope: Scope | undefined, out: Definition[], lines: string[]) => void;

/** Every definition in the tree under `root`, in source order. */
export function definitionsOf(language: CodeLanguage, root: SyntaxNode, source: string): Definition[] {
  const lines = source.split("\n");
  const out: Definition[] = [];
  const visit = VISITORS[language];
  for (const node of root.namedChildren) if (node) visit(node, undefined, out, lines);
  return out;
}

function lineAt(lines: string[], row: number): string {
  const text = (lines[row] ?? "").trimEnd();
  return text.length > MAX_SIGNATURE_CHARS ? `${text.slice(0, MAX_SIGNATURE_CHARS)}…` : text;
}

function contextOf(node: SyntaxNode, lines: string[]): DefinitionContext {
  return { line: node.startPosition.row + 1, signature: lineAt(lines, node.startPosition.row) };
}

function add(
  out: Definition[],
  lines: string[],
  nameNode: SyntaxNode | null | undefined,
  kind: DefinitionKind,
  scope?: Scope,
): void {
  if (!nameNode || nameNode.text === "") return;
  const row = nameNode.startPosition.row;
  out.push({
    name: nameNode.text,
    kind,
    line: row + 1,
    signature: lineAt(lines, row),
    ...(scope ? { parent: scope.parent, ...(scope.context ? { context: scope.context } : {}) } : {}),
  });
}

function children(node: SyntaxNode | null | undefined): SyntaxNode[] {
  return (node?.namedChildren ?? []).filter((c): c is SyntaxNode => c !== null);
}

/** ALL_CAPS names: the module constants worth a line in a map (not every assignment is). */
const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;

const python: Visit = (node, scope, out, lines) => {
  switch (node.type) {
    case "decorated_definition": {
      const inner = node.childForFieldName("definition");
      if (inner) python(inner, scope, out, lines);
      return;
    }
    case "class_definition": {
      const name = node.childForFieldName("name");
      add(out, lines, name, "class", scope);
      if (!name) return;
      const inner = { parent: name.text, context: contextOf(node, lines) };
      for (const member of children(node.childForFieldName("body"))) python(member, inner, out, lines);
      return;
    }
    case "function_definition":
      add(out, lines, node.childForFieldName("name"), scope ? "method" : "function", scope);
      return;
    case "expression_statement": {
      if (scope) return;
      const assignment = node.namedChildren[0];
      const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : undefined;
      if (left?.type === "identifier" && CONSTANT_NAME.test(left.text)) add(out, lines, left, "const");
      return;
    }
  }
};

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
const TS_MEMBERS = new Set(["method_definition", "method_signature", "abstract_method_signature"]);

const typescript: Visit = (node, scope, out, lines) => {
  switch (node.type) {
    case "export_statement": {
      const inner = node.childForFieldName("declaration");
      if (inner) typescript(inner, scope, out, lines);
      return;
    }
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature":
      add(out, lines, node.childForFieldName("name"), "function", scope);
      return;
    case "class_declaration":
    case "abstract_class_declaration":
    case "interface_declaration": {
      const name = node.childForFieldName("name");
      add(out, lines, name, node.type === "interface_declaration" ? "interface" : "class", scope);
      if (!name) return;
      const inner = { parent: name.text, context: contextOf(node, lines) };
      for (const member of children(node.childForFieldName("body")))
        if (TS_MEMBERS.has(member.type)) add(out, lines, member.childForFieldName("name"), "method", inner);
      return;
    }
    case "type_alias_declaration":
      add(out, lines, node.childForFieldName("name"), "type", scope);
      return;
    case "enum_declaration":
      add(out, lines, node.childForFieldName("name"), "enum", scope);
      return;
    case "internal_module":
    case "module":
      add(out, lines, node.childForFieldName("name"), "module", scope);
      return;
    case "lexical_declaration":
    case "variable_declaration": {
      const isConst = node.child(0)?.type === "const";
      for (const declarator of children(node)) {
        if (declarator.type !== "variable_declarator") continue;
        const name = declarator.childForFieldName("name");
        if (name?.type !== "identifier") continue; // a destructuring pattern names nothing new worth mapping
        const value = declarator.childForFieldName("value");
        if (value && FUNCTION_VALUES.has(value.type)) add(out, lines, name, "function", scope);
        else if (isConst) add(out, lines, name, "const", scope);
      }
      return;
    }
  }
};

/** `*Cart`, `Cart[T]` → `Cart`: the type a Go method's receiver names. */
function receiverType(node: SyntaxNode): string | undefined {
  const param = children(node.childForFieldName("receiver")).find((c) => c.type === "parameter_declaration");
  let type = param?.childForFieldName("type");
  while (
    type &&
    (type.type === "pointer_type" || type.type === "generic_type" || type.type === "parenthesized_type")
  )
    type = type.type === "generic_type" ? type.childForFieldName("type") : children(type)[0];
  return type?.text;
}

const GO_TYPE_KINDS: Record<string, DefinitionKind> = { struct_type: "struct", interface_type: "interface" };

const go: Visit = (node, _scope, out, lines) => {
  switch (node.type) {
    case "function_declaration":
      add(out, lines, node.childForFieldName("name"), "function");
      return;
    case "method_declaration": {
      const parent = receiverType(node);
      add(
        out,
        lines,
        node.childForFieldName("name"),
        "method",
        parent ? { parent, context: undefined } : undefined,
      );
      return;
    }
    case "type_declaration":
      for (const spec of children(node)) {
        if (spec.type !== "type_spec" && spec.type !== "type_alias") continue;
        const name = spec.childForFieldName("name");
        const type = spec.childForFieldName("type");
        add(out, lines, name, GO_TYPE_KINDS[type?.type ?? ""] ?? "type");
        if (!name || type?.type !== "interface_type") continue;
        const inner = { parent: name.text, context: contextOf(spec, lines) };
        for (const member of children(type))
          if (member.type === "method_elem" || member.type === "method_spec")
            add(out, lines, member.childForFieldName("name"), "method", inner);
      }
      return;
    case "const_declaration":
      for (const spec of children(node))
        if (spec.type === "const_spec")
          for (const name of spec.childrenForFieldName("name"))
            if (name?.type === "identifier") add(out, lines, name, "const"); // the field's list has its commas too
      return;
  }
};

const RUST_KINDS: Record<string, DefinitionKind> = {
  struct_item: "struct",
  union_item: "struct",
  enum_item: "enum",
  type_item: "type",
  const_item: "const",
  static_item: "const",
  macro_definition: "macro",
};

/** `Point<T>`, `crate::Point` → `Point`: the type an impl block is for. */
function implType(node: SyntaxNode): string | undefined {
  let type = node.childForFieldName("type");
  while (type && (type.type === "generic_type" || type.type === "scoped_type_identifier"))
    type = type.childForFieldName(type.type === "generic_type" ? "type" : "name");
  return type?.text;
}

const rust: Visit = (node, scope, out, lines) => {
  const kind = RUST_KINDS[node.type];
  if (kind) {
    add(out, lines, node.childForFieldName("name"), kind);
    return;
  }
  switch (node.type) {
    case "function_item":
    case "function_signature_item":
      add(out, lines, node.childForFieldName("name"), scope ? "method" : "function", scope);
      return;
    case "trait_item":
    case "impl_item": {
      const isTrait = node.type === "trait_item";
      const name = isTrait ? node.childForFieldName("name") : undefined;
      if (isTrait) add(out, lines, name, "trait");
      const parent = isTrait ? name?.text : implType(node);
      if (!parent) return;
      const inner = { parent, context: contextOf(node, lines) };
      for (const member of children(node.childForFieldName("body"))) rust(member, inner, out, lines);
      return;
    }
    case "mod_item":
      add(out, lines, node.childForFieldName("name"), "module");
      for (const member of children(node.childForFieldName("body"))) rust(member, undefined, out, lines);
      return;
  }
};

const VISITORS: Record<CodeLanguage, Visit> = { python, typescript, javascript: typescript, go, rust };
