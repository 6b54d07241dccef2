import { basename, extname } from "node:path";
import type ts from "typescript";
import type { LintIssue, LintReport } from "./types.js";

/**
 * "Cannot find name" in its three spellings: plain, with a did-you-mean suggestion, and as a shorthand
 * property `{ x }`. The 258x/259x variants ("do you need @types/node?") are deliberately absent: those
 * names (require, process, describe…) exist at run time.
 */
const UNDEFINED_NAME_CODES = new Set([2304, 2552, 18004]);

const JS_EXTENSIONS = new Set([".js", ".mjs", ".cjs", ".jsx"]);

/** Where the linted file pretends to live; nothing is read from or written to this directory. */
const VIRTUAL_DIR = "/__acilab_lint__";
const PRELUDE_PATH = `${VIRTUAL_DIR}/acilab-globals.d.ts`;

/**
 * Runtime globals that ES libs do not declare: Node, browsers and test runners. Declared loosely so
 * that using them is never an "undefined name"; types are not the guardrail's business.
 */
const PRELUDE = `
declare var require: any, module: any, exports: any, process: any, global: any, Buffer: any;
declare var __dirname: string, __filename: string;
declare var console: any, setTimeout: any, clearTimeout: any, setInterval: any, clearInterval: any;
declare var setImmediate: any, clearImmediate: any, queueMicrotask: any, structuredClone: any;
declare var fetch: any, Request: any, Response: any, Headers: any, URL: any, URLSearchParams: any;
declare var TextEncoder: any, TextDecoder: any, AbortController: any, AbortSignal: any, Event: any;
declare var EventTarget: any, Blob: any, FormData: any, crypto: any, performance: any, atob: any, btoa: any;
declare var window: any, document: any, navigator: any, location: any, localStorage: any, self: any;
declare var alert: any, HTMLElement: any, Element: any, Node: any, customElements: any;
declare var describe: any, it: any, test: any, expect: any, beforeEach: any, afterEach: any;
declare var beforeAll: any, afterAll: any, jest: any, vi: any, React: any, JSX: any;
`;

/** The ES library only (no DOM): DOM types are large and the prelude covers the names agents use. */
const LIB = ["lib.es2023.d.ts"];

type TypeScript = typeof ts;

/** Loaded on first use: the compiler is ~9 MB of JavaScript, and tool sets without lint never need it. */
let compiler: Promise<TypeScript> | undefined;
function loadCompiler(): Promise<TypeScript> {
  compiler ??= import("typescript").then((m) => m.default);
  return compiler;
}

function optionsFor(ts: TypeScript, fileName: string): ts.CompilerOptions {
  return {
    noLib: false,
    lib: LIB,
    allowJs: true,
    checkJs: JS_EXTENSIONS.has(extname(fileName)),
    noResolve: true,
    types: [],
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    jsx: ts.JsxEmit.Preserve,
    strict: false,
    skipLibCheck: true,
    skipDefaultLibCheck: true,
    allowNonTsExtensions: true,
  };
}

/**
 * Lib files parsed once per process and shared by every program: parsing lib.es2023 takes ~0.5 s,
 * and a SourceFile, once bound, is reused as is by later programs.
 */
const libCache = new Map<string, ts.SourceFile>();
let preludeFile: ts.SourceFile | undefined;

/**
 * The last parse of each virtual file, so that an edit re-parses only what it changed (a 3,000-line file:
 * ~25 ms whole, ~5 ms incrementally). A few names cover an agent editing several files in turn.
 */
const REPARSE_FILES = 8;
const lastParse = new Map<string, ts.SourceFile>();

/**
 * The previous program, handed to the next as `oldProgram`: its structure (lib files, prelude) is then
 * reused instead of being looked up again, ~10 ms per lint.
 */
let lastProgram: ts.Program | undefined;

/** The span of `before` that differs from `after`, and its new length: what incremental parsing needs. */
function changeRange(ts: TypeScript, before: string, after: string): ts.TextChangeRange {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (
    tail < shorter - start &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  )
    tail++;
  const span = ts.createTextSpan(start, before.length - tail - start);
  return ts.createTextChangeRange(span, after.length - tail - start);
}

/**
 * Parse `content`, incrementally from this name's previous parse when there is one. Incremental parsing
 * takes over the old tree, so the old SourceFile is dropped from the map (only `lastProgram` still holds it,
 * as the language service's old program does).
 */
function parse(ts: TypeScript, fileName: string, content: string): ts.SourceFile {
  const old = lastParse.get(fileName);
  lastParse.delete(fileName);
  const file =
    old === undefined
      ? ts.createSourceFile(fileName, content, ts.ScriptTarget.Latest, true)
      : old.text === content
        ? old
        : ts.updateSourceFile(old, content, changeRange(ts, old.text, content));
  lastParse.set(fileName, file);
  while (lastParse.size > REPARSE_FILES) {
    const oldest = lastParse.keys().next();
    if (oldest.done) break;
    lastParse.delete(oldest.value);
  }
  return file;
}

function hostFor(ts: TypeScript, target: ts.SourceFile, options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const readLib = host.getSourceFile.bind(host);
  return {
    ...host,
    getSourceFile(fileName, languageVersion, onError) {
      if (fileName === target.fileName) return target;
      if (fileName === PRELUDE_PATH) {
        preludeFile ??= ts.createSourceFile(PRELUDE_PATH, PRELUDE, ts.ScriptTarget.Latest, true);
        return preludeFile;
      }
      const cached = libCache.get(fileName);
      if (cached) return cached;
      const parsed = readLib(fileName, languageVersion, onError);
      if (parsed) libCache.set(fileName, parsed);
      return parsed;
    },
    fileExists: (fileName) =>
      fileName === target.fileName || fileName === PRELUDE_PATH || host.fileExists(fileName),
    writeFile: () => {},
  };
}

function toIssue(ts: TypeScript, diagnostic: ts.Diagnostic, file: ts.SourceFile, syntax: boolean): LintIssue {
  const at = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
  return {
    line: at.line + 1,
    column: at.character + 1,
    code: `TS${diagnostic.code}`,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, " "),
    syntax,
  };
}

/**
 * Syntax errors and undefined names in one JS/TS file, in process and without touching disk: a
 * one-file program with module resolution off, so imports are taken on trust and nothing is executed.
 */
export async function lintTypeScript(path: string, content: string): Promise<LintReport> {
  const ts = await loadCompiler();
  const fileName = `${VIRTUAL_DIR}/${basename(path)}`;
  const options = optionsFor(ts, fileName);
  const target = parse(ts, fileName, content);
  const program = ts.createProgram({
    rootNames: [fileName, PRELUDE_PATH],
    options,
    host: hostFor(ts, target, options),
    ...(lastProgram && { oldProgram: lastProgram }),
  });
  lastProgram = program;
  const syntax = program.getSyntacticDiagnostics(target).map((d) => toIssue(ts, d, target, true));
  const names = program
    .getSemanticDiagnostics(target)
    .filter((d) => UNDEFINED_NAME_CODES.has(d.code))
    .map((d) => toIssue(ts, d, target, false));
  return { linter: "typescript", issues: [...syntax, ...names], namesChecked: syntax.length === 0 };
}
