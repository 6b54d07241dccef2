import { type SyntaxLanguage, type SyntaxNode, walk, withParsed } from "../syntax/index.js";
import { languageOf } from "./paths.js";

/**
 * What a mirrored change is: a bug fix (the code existed and did the wrong thing), or a feature (it
 * adds a name — a function, a class, a method, a keyword argument — that its tests then use). A
 * feature is unfair as a bug report: "X is missing" cannot be found by debugging. `tasks mirror`
 * keeps fixes by default and features with `--kind feature`, whose issue text says what to add.
 */
export type ChangeKind = "fix" | "feature";
/** What `--kind` keeps. */
export type KindChoice = ChangeKind | "all";
export const KIND_CHOICES: readonly KindChoice[] = ["fix", "feature", "all"];

/** One public name the change adds. */
export type AddedApi =
  | { kind: "function" | "class" | "method"; name: string }
  | { kind: "keyword"; name: string; of: string }
  /** A JavaScript option: a key of the options object the code now reads (`options.includePrerelease`). */
  | { kind: "option"; name: string };

/** A public definition's qualified name (`Class.method`) → its parameter names. */
type Api = Map<string, { kind: "function" | "class" | "method"; params: Set<string> }>;

/** Definitions whose name starts with one underscore (or `#`) are the module's own business. */
function isPublic(name: string): boolean {
  return !/^(_(?!_)|#)/.test(name) || /^__\w+__$/.test(name);
}

const PY_SELF = new Set(["self", "cls"]);

function pythonParams(fn: SyntaxNode): Set<string> {
  const out = new Set<string>();
  for (const p of fn.childForFieldName("parameters")?.namedChildren ?? []) {
    if (!p) continue;
    // `x`, `x=1`, `x: int`, `x: int = 1`; *args and **kwargs are no keyword of their own.
    const name =
      p.type === "identifier"
        ? p.text
        : p.type === "default_parameter" || p.type === "typed_default_parameter"
          ? p.childForFieldName("name")?.text
          : p.type === "typed_parameter"
            ? p.namedChildren.find((c) => c?.type === "identifier")?.text
            : undefined;
    if (name && !PY_SELF.has(name)) out.add(name);
  }
  return out;
}

/** The public definitions of one Python file: top-level functions and classes, and classes' methods. */
function pythonApi(root: SyntaxNode): Api {
  const api: Api = new Map();
  for (const node of walk(root)) {
    if (node.type !== "function_definition" && node.type !== "class_definition") continue;
    const name = node.childForFieldName("name")?.text;
    if (!name || !isPublic(name)) continue;
    // Its owners: classes only (a function inside a function is not API).
    const owners: string[] = [];
    let nested = false;
    for (let p = node.parent; p; p = p.parent) {
      if (p.type === "function_definition") nested = true;
      if (p.type === "class_definition") owners.unshift(p.childForFieldName("name")?.text ?? "");
    }
    if (nested || owners.some((o) => !isPublic(o))) continue;
    const kind = node.type === "class_definition" ? "class" : owners.length > 0 ? "method" : "function";
    api.set([...owners, name].join("."), {
      kind,
      params: kind === "class" ? new Set() : pythonParams(node),
    });
  }
  return api;
}

/**
 * The names a Python module binds by importing them at its top (`from itertools import pairwise`):
 * public already, so a later `def pairwise` in their place adds nothing new.
 */
function pythonImported(root: SyntaxNode): Set<string> {
  const out = new Set<string>();
  for (const node of root.namedChildren) {
    if (node?.type !== "import_from_statement") continue;
    for (const name of node.namedChildren.slice(1)) {
      if (name?.type === "dotted_name") out.add(name.text.split(".").at(-1) ?? name.text);
      else if (name?.type === "aliased_import") {
        const alias = name.childForFieldName("alias")?.text;
        if (alias) out.add(alias);
      }
    }
  }
  return out;
}

/** An options object as JavaScript code names it: `options`, `opts`, `this.options`. */
const OPTIONS_OBJECT = /^(?:this\.)?(?:options|opts)$/;

/**
 * The options a JavaScript file reads (`options.loose`, `this.options.includePrerelease`): a key new
 * to them is JavaScript's keyword argument.
 */
function scriptOptions(root: SyntaxNode): Set<string> {
  const out = new Set<string>();
  for (const node of walk(root)) {
    if (node.type !== "member_expression") continue;
    const property = node.childForFieldName("property");
    if (
      property?.type === "property_identifier" &&
      OPTIONS_OBJECT.test(node.childForFieldName("object")?.text ?? "")
    )
      out.add(property.text);
  }
  return out;
}

/** The public definitions of a JavaScript/TypeScript file: functions, classes and their methods, exports. */
function scriptApi(root: SyntaxNode): Api {
  const api: Api = new Map();
  const add = (name: string | undefined, kind: "function" | "class" | "method") => {
    if (name && isPublic(name.split(".").at(-1) ?? name)) api.set(name, { kind, params: new Set() });
  };
  for (const node of walk(root)) {
    if (node.type === "function_declaration" || node.type === "generator_function_declaration")
      add(node.childForFieldName("name")?.text, "function");
    else if (node.type === "class_declaration") add(node.childForFieldName("name")?.text, "class");
    else if (node.type === "method_definition") {
      const cls = node.parent?.parent;
      const owner = cls?.childForFieldName("name")?.text;
      if (owner) add(`${owner}.${node.childForFieldName("name")?.text ?? ""}`, "method");
    } else if (node.type === "variable_declarator") {
      const value = node.childForFieldName("value")?.type ?? "";
      if (/^(arrow_function|function_expression|function|class)$/.test(value))
        add(node.childForFieldName("name")?.text, value === "class" ? "class" : "function");
    } else if (node.type === "assignment_expression") {
      // exports.name = … / module.exports.name = …
      const left = node.childForFieldName("left")?.text ?? "";
      const m = /^(?:module\.)?exports\.(\w+)$/.exec(left);
      if (m) add(m[1], "function");
    }
  }
  return api;
}

interface FileApi {
  api: Api;
  /** JavaScript only: the option keys the file reads. */
  options: Set<string>;
  /** Python only: the names its top-level imports bind. */
  imported: Set<string>;
}

async function apiOf(language: SyntaxLanguage, path: string, text: string | undefined): Promise<FileApi> {
  const none = { api: new Map(), options: new Set<string>(), imported: new Set<string>() };
  if (text === undefined) return none;
  const found = await withParsed(language, path, text, (root) =>
    language === "python"
      ? { api: pythonApi(root), options: new Set<string>(), imported: pythonImported(root) }
      : { api: scriptApi(root), options: scriptOptions(root), imported: new Set<string>() },
  );
  return found ?? none;
}

/**
 * The public names the change adds to its source files: definitions that were not there before (a
 * class's new methods are not listed again), for Python keyword parameters new to a function that
 * was, and for JavaScript option keys the changed files did not read before — unless
 * `knownBefore(name)` finds the name in the repository before the change (an existing option that a
 * fix now also honours is no new API). `read(path, "old" | "new")` gives a file's text before and
 * after the change.
 */
export async function addedApi(
  sourceFiles: readonly string[],
  read: (path: string, side: "old" | "new") => Promise<string | undefined>,
  knownBefore: (name: string) => Promise<boolean> = async () => false,
): Promise<AddedApi[]> {
  const added: AddedApi[] = [];
  const optionsBefore = new Set<string>();
  const optionsAfter = new Set<string>();
  for (const path of sourceFiles) {
    const language = languageOf(path);
    if (!language) continue;
    const old = await apiOf(language, path, await read(path, "old"));
    const now = await apiOf(language, path, await read(path, "new"));
    for (const o of old.options) optionsBefore.add(o);
    for (const o of now.options) optionsAfter.add(o);
    const before = old.api;
    const after = now.api;
    // A definition that takes the place of a name the module imported before (itertools' `pairwise`
    // wrapped in a function of the same name) is the same API.
    const newNames = [...after.keys()].filter((n) => !before.has(n) && !old.imported.has(n));
    for (const name of newNames) {
      const owner = name.split(".").slice(0, -1).join(".");
      if (owner && newNames.includes(owner)) continue; // the new class is named, not each method
      const def = after.get(name);
      if (def) added.push({ kind: def.kind, name });
    }
    if (language !== "python") continue; // JavaScript arguments are positional: no keyword to name
    for (const [name, def] of after) {
      const was = before.get(name);
      if (!was) continue;
      for (const p of def.params) if (!was.params.has(p)) added.push({ kind: "keyword", name: p, of: name });
    }
  }
  // Across the changed files: an option read moved from one file to another is not new.
  for (const name of optionsAfter)
    if (!optionsBefore.has(name) && !(await knownBefore(name))) added.push({ kind: "option", name });
  return added;
}

/**
 * Of the added names, those the change's own tests use: a function, class or method by its name
 * (`mi.subfactorial(…)`, `from x import new`), a keyword as `name=`, an option as a key
 * (`{ includePrerelease: true }`) — in the lines the change added to its test files.
 */
export function usedByTests(added: readonly AddedApi[], testDiff: string): AddedApi[] {
  const lines = testDiff
    .split("\n")
    .filter((l) => l.startsWith("+") && !l.startsWith("+++"))
    .map((l) => l.slice(1))
    .join("\n");
  return added.filter((a) => {
    const bare = a.kind === "keyword" || a.kind === "option" ? a.name : (a.name.split(".").at(-1) ?? a.name);
    const word = bare.replace(/[$]/g, "\\$");
    return new RegExp(
      a.kind === "keyword"
        ? `[(,]\\s*${word}\\s*=[^=]`
        : a.kind === "option"
          ? `[{,]\\s*['"]?${word}['"]?\\s*:`
          : `(?<![\\w$])${word}(?![\\w$])`,
    ).test(lines);
  });
}

/** `interleave_randomly`, `keyword step of windowed`: the added names for a reason line. */
export function describeApi(api: readonly AddedApi[]): string {
  return api
    .map((a) =>
      a.kind === "keyword"
        ? `keyword ${a.name} of ${a.of}`
        : a.kind === "option"
          ? `option ${a.name}`
          : a.name,
    )
    .join(", ");
}

/** For a feature request: "a new function `f`", "a new keyword argument `step` of `windowed`". */
export function requestApi(a: AddedApi): string {
  if (a.kind === "keyword") return `a new keyword argument \`${a.name}\` of \`${a.of}\``;
  if (a.kind === "option") return `a new option \`${a.name}\``;
  return `a new ${a.kind} \`${a.name}\``;
}
