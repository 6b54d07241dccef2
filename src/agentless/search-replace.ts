/**
 * Repair candidates as SEARCH/REPLACE blocks (the edit format Agentless and Aider ask models for):
 *
 *     ### textstats/core.py
 *     <<<<<<< SEARCH
 *         return values[mid]
 *     =======
 *         return (values[mid - 1] + values[mid]) / 2
 *     >>>>>>> REPLACE
 *
 * Reading the blocks and applying them are pure functions on strings; a block whose SEARCH text is
 * not in the file makes the whole candidate fail to apply (a partly applied fix is not the one the
 * model wrote).
 */

export interface SearchReplace {
  path: string;
  search: string;
  replace: string;
}

export interface ParsedEdits {
  edits: SearchReplace[];
  /** Why a block was not read (no file named, not terminated); a candidate with any is malformed. */
  problems: string[];
}

const SEARCH = /^\s*<{5,9}\s*SEARCH\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const REPLACE = /^\s*>{5,9}\s*REPLACE\s*$/;

/** A line naming a file before a block: `### path`, `path`, `` `path` ``, or `# path` (inside a fence). */
function fileNamed(line: string, files: ReadonlySet<string>): string | undefined {
  const name = line
    .trim()
    .replace(/^#+\s*/, "")
    .replace(/^(?:file|path)\s*:\s*/i, "")
    .replace(/[`*]/g, "")
    .replace(/^\.\//, "")
    .trim();
  return files.has(name) ? name : undefined;
}

/**
 * The blocks of a reply. `files` are the paths a block may edit; a block names one of them on a line
 * before it, or, when only one file is open for editing, may name none.
 */
export function parseEdits(reply: string, files: ReadonlySet<string>): ParsedEdits {
  const lines = reply.split("\n");
  const edits: SearchReplace[] = [];
  const problems: string[] = [];
  const only = files.size === 1 ? [...files][0] : undefined;
  let current: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const named = fileNamed(line, files);
    if (named) {
      current = named;
      continue;
    }
    if (!SEARCH.test(line)) continue;
    const search: string[] = [];
    const replace: string[] = [];
    let part: string[] | undefined = search;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j] as string;
      if (part === search && DIVIDER.test(l)) part = replace;
      else if (part === replace && REPLACE.test(l)) {
        part = undefined;
        break;
      } else part.push(l);
    }
    const number = edits.length + problems.length + 1;
    if (part !== undefined)
      problems.push(`block ${number} has no ${part === search ? "=======" : ">>>>>>> REPLACE"} line`);
    else if (!(current ?? only)) problems.push(`block ${number} names no file it edits (### path before it)`);
    else if (search.every((l) => l.trim() === ""))
      problems.push(`block ${number} has an empty SEARCH part (new files are not written by repair)`);
    else
      edits.push({
        path: (current ?? only) as string,
        search: `${search.join("\n")}\n`,
        replace: replace.length === 0 ? "" : `${replace.join("\n")}\n`,
      });
    i = j;
  }
  if (edits.length === 0 && problems.length === 0) problems.push("the reply has no SEARCH/REPLACE block");
  return { edits, problems };
}

export type Applied = { ok: true; files: Map<string, string> } | { ok: false; reason: string };

/**
 * Applies `edits` in order to `base` (path → text). Each SEARCH must occur in the file as edited so
 * far; the first occurrence is replaced, as Aider does. A file's last line without a newline still
 * matches a SEARCH ending in one.
 */
export function applySearchReplace(
  base: ReadonlyMap<string, string>,
  edits: readonly SearchReplace[],
): Applied {
  const files = new Map<string, string>();
  for (const [n, edit] of edits.entries()) {
    const text = files.get(edit.path) ?? base.get(edit.path);
    if (text === undefined)
      return { ok: false, reason: `block ${n + 1}: ${edit.path} is not open for editing` };
    let at = text.indexOf(edit.search);
    let search = edit.search;
    let replace = edit.replace;
    if (at < 0 && !text.endsWith("\n") && text.endsWith(edit.search.slice(0, -1))) {
      search = edit.search.slice(0, -1);
      replace = edit.replace.endsWith("\n") ? edit.replace.slice(0, -1) : edit.replace;
      at = text.length - search.length;
    }
    if (at < 0) {
      const first = edit.search.split("\n")[0]?.trim() ?? "";
      return {
        ok: false,
        reason: `block ${n + 1}: the SEARCH text (starting "${first.slice(0, 60)}") is not in ${edit.path}`,
      };
    }
    files.set(edit.path, text.slice(0, at) + replace + text.slice(at + search.length));
  }
  return { ok: true, files };
}
