/**
 * Memory files: the standing instructions a run puts in its stable, cached prompt prefix. The user's
 * own `<config dir>/AGENTS.md` first, then the project's (AGENTS.md, or CLAUDE.md where there is
 * none), with Claude Code's `@path` imports expanded, all capped at Codex's 32 KiB.
 */
import { closeSync, lstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isWithin } from "../workspace/index.js";
import { defaultConfigDir } from "./config-dir.js";

/** Codex caps its memory at 32 KiB: enough for instructions, small enough to always cache. */
export const MEMORY_FILE_MAX_BYTES = 32 * 1024;
/** AGENTS.md is the cross-tool convention; CLAUDE.md is read when there is no AGENTS.md. */
export const MEMORY_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Claude Code's bound on nested `@` imports: deep enough for a shared file, shallow enough to see through. */
export const MAX_IMPORT_DEPTH = 5;
/** Bytes read of any one file: the total is capped anyway, so more would only be cut. */
const READ_LIMIT = MEMORY_FILE_MAX_BYTES + 1;

export interface MemoryFile {
  /** The file's real absolute path. */
  path: string;
  /** As the model is shown it: repository-relative for the project's file, the path for the user's. */
  shown: string;
  scope: "user" | "project";
  /** Real paths of the files its `@` imports pulled in (nested ones too), in order. */
  imports: string[];
}

export interface LoadedMemory {
  /** For `memory` in the request: each file framed with its path; "" when there is none. */
  text: string;
  files: MemoryFile[];
  /** What was skipped or cut, and why: for the user, never for the model. */
  warnings: string[];
}

export interface MemoryOptions {
  /** The repository root: project files and their imports must really be inside it. */
  repo: string;
  /** Where the search for the project's file starts (inside `repo`); default the root. */
  cwd?: string;
  /** The user's config dir; default `defaultConfigDir()`; null = no user file (benchmark task runs). */
  userDir?: string | null;
}

/** A file's text, or why it cannot be used. */
type Read = { ok: true; real: string; text: string } | { ok: false; why: string };

interface Scope {
  /** Real path that the scope's files and imports must stay inside. */
  root: string;
  scope: MemoryFile["scope"];
  show(real: string): string;
  warnings: string[];
}

/** The memory text for a run, the files it came from and what went wrong on the way. */
export function loadMemoryFiles(options: MemoryOptions): LoadedMemory {
  const warnings: string[] = [];
  const files: MemoryFile[] = [];
  const sections: string[] = [];
  const add = (scope: Scope, found: { real: string; text: string }, label: string): void => {
    const file: MemoryFile = {
      path: found.real,
      shown: scope.show(found.real),
      scope: scope.scope,
      imports: [],
    };
    const body = expandImports(found.text, file, scope, [found.real], file.imports);
    files.push(file);
    sections.push(`${label} from ${file.shown}:\n${body.trimEnd()}`);
  };

  const userDir = options.userDir === undefined ? defaultConfigDir() : options.userDir;
  const userRoot = userDir === null ? undefined : realOrUndefined(userDir);
  if (userRoot !== undefined) {
    const scope: Scope = { root: userRoot, scope: "user", show: (p) => p, warnings };
    const path = join(userRoot, "AGENTS.md");
    if (exists(path)) {
      const found = readInside(path, userRoot);
      if (found.ok) add(scope, found, "User instructions");
      else warnings.push(`${path}: ${found.why}; not read`);
    }
  }

  const repo = realpathSync(options.repo);
  const cwd = options.cwd === undefined ? repo : realOrUndefined(options.cwd);
  if (cwd === undefined || !isWithin(repo, cwd))
    throw new Error(
      `memory files: ${options.cwd} is not a folder inside the repository ${options.repo}; start from inside it`,
    );
  const scope: Scope = { root: repo, scope: "project", show: (p) => relative(repo, p) || ".", warnings };
  const project = nearestProjectFile(repo, cwd, scope);
  if (project) add(scope, project, "Project instructions");

  return { text: capped(sections.join("\n\n"), warnings), files, warnings };
}

/**
 * The project's one memory file: the nearest AGENTS.md on the way from `cwd` up to the root, else the
 * nearest CLAUDE.md. Nearest wins rather than concatenating every level (Codex's semantics): a
 * sub-project's file is written knowing its parent's and says what applies there, and stacking them
 * would spend the shared 32 KiB twice on overlapping, sometimes contradicting, instructions.
 */
function nearestProjectFile(
  repo: string,
  cwd: string,
  scope: Scope,
): { real: string; text: string } | undefined {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (dir === repo || dir === dirname(dir)) break;
  }
  for (const name of MEMORY_FILES) {
    for (const dir of dirs) {
      const path = join(dir, name);
      if (!exists(path)) continue;
      const found = readInside(path, repo);
      if (found.ok) return found;
      scope.warnings.push(`${relative(repo, path)}: ${found.why}; looked further up`);
    }
  }
  return undefined;
}

/** `@path` at the start of a line or after whitespace (so not an e-mail address), as Claude Code reads it. */
const IMPORT = /(^|\s)@([^\s`]+)/g;
/** Sentence punctuation after a path ("see @docs/style.md.") is not part of it. */
const TRAILING = /[.,;:!?)\]]+$/;

/**
 * `text` with every `@path` outside code replaced by that file's (expanded) text. An import that
 * cannot be followed stays as written, with a warning naming the file, the import and why.
 */
function expandImports(
  text: string,
  file: MemoryFile,
  scope: Scope,
  stack: string[],
  imports: string[],
): string {
  const from = stack[stack.length - 1] as string;
  return outsideCode(text, (prose) =>
    prose.replace(IMPORT, (whole, lead: string, raw: string) => {
      const token = raw.replace(TRAILING, "");
      const trail = raw.slice(token.length);
      const refuse = (why: string): string => {
        scope.warnings.push(`${scope.show(from)}: import @${token} left as is: ${why}`);
        return whole;
      };
      if (stack.length > MAX_IMPORT_DEPTH)
        return refuse(`imports nest deeper than ${MAX_IMPORT_DEPTH} levels`);
      const target = token.startsWith("~/")
        ? join(homedir(), token.slice(2))
        : isAbsolute(token)
          ? token
          : resolve(dirname(from), token);
      const found = readInside(target, scope.root);
      if (!found.ok) return refuse(found.why);
      if (stack.includes(found.real))
        return refuse(`a cycle (${[...stack, found.real].map(scope.show).join(" → ")})`);
      imports.push(found.real);
      const body = expandImports(found.text, file, scope, [...stack, found.real], imports);
      return `${lead}${body.trimEnd()}${trail}`;
    }),
  );
}

/**
 * Applies `edit` to the prose of a Markdown text only: fenced blocks (``` or ~~~) and inline code
 * spans pass through untouched, so an example like `@types/node` or a shell snippet is not an import.
 */
function outsideCode(text: string, edit: (prose: string) => string): string {
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length)
          fence = undefined;
        return line;
      }
      if (marker !== undefined) {
        fence = marker;
        return line;
      }
      // Odd indices are code spans: a split with a capturing group keeps them in place.
      return line
        .split(/(`+[^`]*`+)/)
        .map((part, i) => (i % 2 === 1 ? part : edit(part)))
        .join("");
    })
    .join("\n");
}

/**
 * A file's text, read only if its real location (symlinks followed) is inside `root`: a memory file
 * or import that links out of the repository is refused, like any path the tree itself names.
 */
function readInside(path: string, root: string): Read {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    return {
      ok: false,
      why: codeOf(err) === "ENOENT" ? "no such file" : `cannot resolve it (${codeOf(err)})`,
    };
  }
  if (!isWithin(root, real))
    return { ok: false, why: `it is outside ${root} (only files inside it are read)` };
  try {
    const stat = statSync(real);
    if (stat.isDirectory()) return { ok: false, why: "it is a directory, not a file" };
    if (!stat.isFile()) return { ok: false, why: "it is not a regular file" };
    const fd = openSync(real, "r");
    try {
      const buffer = Buffer.alloc(Math.min(stat.size, READ_LIMIT));
      const n = readSync(fd, buffer, 0, buffer.length, 0);
      return { ok: true, real, text: buffer.subarray(0, n).toString("utf8") };
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { ok: false, why: `cannot read it (${codeOf(err)})` };
  }
}

/** The text cut to the cap on a character boundary, with a marker saying so (marker included in the cap). */
function capped(text: string, warnings: string[]): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= MEMORY_FILE_MAX_BYTES) return text;
  const marker = `\n[memory files cut at ${MEMORY_FILE_MAX_BYTES} bytes; the rest was left out]`;
  let end = MEMORY_FILE_MAX_BYTES - Buffer.byteLength(marker);
  // Never split a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  warnings.push(
    `memory files: ${bytes.length} bytes together, over the ${MEMORY_FILE_MAX_BYTES}-byte cap; the end was cut — shorten them or their imports`,
  );
  return `${bytes.subarray(0, end).toString("utf8")}${marker}`;
}

/** lstat, so a dangling symlink named AGENTS.md is found (and then refused with a reason). */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function codeOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (err instanceof Error ? err.message : String(err));
}
