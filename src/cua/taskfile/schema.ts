/**
 * A computer-use task file (task.yaml) as data: the schema, and a parse that reports every problem at
 * its line and column with the field's name and what to write instead. Pure: no file system here
 * (./load.ts reads files and checks the paths they name).
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { z } from "zod";
import { parseRequestRule } from "../env/request-rules.js";
import type { ScriptedCuaStep } from "../scripted.js";
import { SCRIPT_STEP } from "../tasks/policy.js";
import type { ObserveKind } from "../types.js";

/** Observation kinds a task file may ask for (dom is the loop's, not a browser task's). */
export const TASK_FILE_OBSERVE: readonly ObserveKind[] = ["screenshot", "a11y", "som"];

/** The app an episode runs against: a folder acilab serves, a command acilab starts, or a URL. */
export type TaskFileApp =
  | { kind: "static"; dir: string }
  | { kind: "command"; command: string; ready: string; cwd: string }
  | { kind: "url"; url: string };

/** One task file, loaded: paths are absolute, defaults filled in. */
export interface TaskFile {
  /** The task file's absolute path (what errors and `tasks list` name). */
  file: string;
  id: string;
  /** Exactly one of the two: told verbatim, or read from the page after it loads. */
  instruction: { text: string } | { js: string };
  app: TaskFileApp;
  /** The first page, relative to the app (undefined: the app's root, or the url itself). */
  start: string | undefined;
  /** Run in the page after the first load ("" = nothing). */
  setupJs: string;
  grade: { js: string; doneJs: string | undefined };
  allowHosts: string[];
  /** State-changing requests allowed without asking (`METHOD PATTERN`); every other one is held. */
  allowRequests: string[];
  observe: ObserveKind[];
  script: ScriptedCuaStep[];
}

/** A problem in a task file: the file, the field, where it was written, and what to do. */
export class TaskFileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly reason: string,
    readonly at?: { line: number; column: number },
  ) {
    super(`${file}${at ? `:${at.line}:${at.column}` : ""}: ${field ? `${field}: ` : ""}${reason}`);
    this.name = "TaskFileError";
  }
}

const text = z.string().trim().min(1);
const App = z.union([
  z.object({ static: text }).strict(),
  z.object({ command: text, ready: text.optional() }).strict(),
  z
    .object({
      url: z.url({
        protocol: /^https?$/,
        error: "not an http(s) URL — write the page your app serves, e.g. http://127.0.0.1:8080/",
      }),
    })
    .strict(),
]);
const Schema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lower-case letters, digits, '.', '_' and '-'"),
    instruction: text.optional(),
    instruction_js: text.optional(),
    app: App,
    start: text.optional(),
    setup_js: z.string().optional(),
    grade: z.object({ js: text, done_js: text.optional() }).strict(),
    allow_hosts: z.array(text).optional(),
    allow_requests: z
      .array(
        text.superRefine((rule, ctx) => {
          try {
            parseRequestRule(rule);
          } catch (err) {
            ctx.addIssue({ code: "custom", message: (err as Error).message });
          }
        }),
      )
      .optional(),
    observe: z
      .array(z.enum(TASK_FILE_OBSERVE as [ObserveKind, ...ObserveKind[]]))
      .min(1)
      .optional(),
    script: z.array(SCRIPT_STEP).optional(),
  })
  .strict();

/** What each key is for, said when it is missing or wrong. */
const HINTS: Record<string, string> = {
  id: "give the task an id such as press-the-red-button",
  app: 'write app: {static: ./site}, app: {command: "… {port}", ready: /health} or app: {url: http://…}',
  grade: "write grade: {js: window.REWARD > 0} (an expression read in the page)",
  "grade.js": "an expression read in the page after every step, e.g. window.REWARD",
  allow_requests: 'a list of "METHOD PATTERN" rules, e.g. ["POST /api/search", "GET /search?*"]',
  observe: `a list of ${TASK_FILE_OBSERVE.join(", ")}`,
  script: "a list of scripted steps (docs/computer-use.md: Scripted policies)",
};

/** Parse a task file's text. `dir` is the folder paths in it are relative to. Throws TaskFileError. */
export function parseTaskFile(file: string, source: string, dir: string): TaskFile {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const pos = lines.linePos(first.pos[0]);
    const reason = (first.message.split(/ at line \d+, column \d+/)[0] ?? first.message).trim();
    throw new TaskFileError(file, "", `not valid YAML: ${reason} — fix the file at that line`, {
      line: pos.line,
      column: pos.col,
    });
  }
  const data: unknown = doc.toJS();
  const parsed = Schema.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    const unknown = keys[0];
    const at = locate(
      doc.contents,
      unknown === undefined ? path : [...path, unknown],
      lines,
      unknown !== undefined,
    );
    const field = fieldName(unknown === undefined ? path : [...path, unknown]);
    const reason =
      unknown !== undefined
        ? `unknown key "${unknown}" — the keys are ${knownKeys(path)}`
        : `${issue.message}${HINTS[field] ? ` — ${HINTS[field]}` : ""}`;
    throw new TaskFileError(file, field, reason, at);
  }
  const t = parsed.data;
  const at = (path: (string | number)[]) => locate(doc.contents, path, lines, false);
  if ((t.instruction === undefined) === (t.instruction_js === undefined))
    throw new TaskFileError(
      file,
      "instruction",
      "write exactly one of instruction (the text) or instruction_js (an expression read from the page)",
      at(t.instruction !== undefined ? ["instruction_js"] : []),
    );
  return {
    file,
    id: t.id,
    instruction: t.instruction !== undefined ? { text: t.instruction } : { js: t.instruction_js as string },
    app: toApp(t.app, dir),
    start: t.start,
    setupJs: t.setup_js ?? "",
    grade: { js: t.grade.js, doneJs: t.grade.done_js },
    allowHosts: t.allow_hosts ?? [],
    allowRequests: t.allow_requests ?? [],
    observe: t.observe ?? [...TASK_FILE_OBSERVE],
    script: (t.script ?? []) as ScriptedCuaStep[],
  };
}

function toApp(app: z.infer<typeof App>, dir: string): TaskFileApp {
  if ("static" in app) return { kind: "static", dir: resolvePath(dir, app.static) };
  if ("command" in app) return { kind: "command", command: app.command, ready: app.ready ?? "/", cwd: dir };
  return { kind: "url", url: app.url };
}

function resolvePath(dir: string, path: string): string {
  return path.startsWith("/") ? path : `${dir.replace(/\/$/, "")}/${path.replace(/^\.\//, "")}`;
}

function knownKeys(path: readonly (string | number)[]): string {
  const shapes: Record<string, string> = {
    "": "id, instruction | instruction_js, app, start, setup_js, grade, allow_hosts, allow_requests, observe, script",
    app: "static, or command and ready, or url",
    grade: "js, done_js",
  };
  return shapes[fieldName(path)] ?? "those of the scripted step format (docs/computer-use.md)";
}

/** `grade.js`, `script[2].click` — the field as a person finds it in the file. */
function fieldName(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (name, p) => (typeof p === "number" ? `${name}[${p}]` : name ? `${name}.${p}` : p),
    "",
  );
}

/** The line and column of `path` in the document (its key's when `key`), as deep as the path goes. */
function locate(
  root: unknown,
  path: readonly (string | number)[],
  lines: LineCounter,
  key: boolean,
): { line: number; column: number } {
  let node: unknown = root;
  let found: Node | undefined = isNode(root) ? root : undefined;
  for (const [i, segment] of path.entries()) {
    if (isSeq(node) && typeof segment === "number") node = node.items[segment];
    else if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      node = key && i === path.length - 1 ? pair?.key : pair?.value;
    } else break;
    if (isNode(node)) found = node;
  }
  const { line, col } = lines.linePos(found?.range?.[0] ?? 0);
  return { line, column: col };
}

function isNode(node: unknown): node is Node {
  return typeof node === "object" && node !== null && "range" in node;
}
