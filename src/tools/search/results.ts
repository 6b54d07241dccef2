import type { ToolResult } from "../types.js";
import type { Collected, LineHit, SearchRun } from "./collect.js";
import { MAX_LINE_CHARS } from "./limits.js";

/** `1 file`, `2 files`; irregular plurals are passed in. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** Code-unit order, not locale order: the same on every machine. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byPathThenLine(a: LineHit, b: LineHit): number {
  return comparePaths(a.path, b.path) || a.line - b.line;
}

/** Zero results is an observation, not an error: the model learns the thing is not there. */
export function noMatches(run: SearchRun, shown: string, notes: string[]): ToolResult {
  const extra = notes.map((note) => `\n(rg: ${note})`).join("");
  return { output: `No matches found for ${run.query} in ${shown}${extra}` };
}

/** Above the cap: list nothing, say exactly how many matched and how to narrow the query. */
export function tooMany(
  run: SearchRun,
  shown: string,
  result: Extract<Collected<unknown>, { kind: "too_many" }>,
  counted: (total: number, files: number) => string,
  unit: string,
): ToolResult {
  const atLeast = result.lowerBound ? "at least " : "";
  return {
    output:
      `Too many results: ${atLeast}${counted(result.total, result.files)} for ${run.query} in ${shown} ` +
      `(the limit is ${plural(run.options.maxResults, unit)}), so none are listed. Narrow the search: ${run.narrowing}.`,
    error: "too_many_results",
  };
}

/** rg's `--max-columns-preview` marker; we replace it with our own, uniform one. */
const RG_PREVIEW_MARKER = " [... omitted end of long line]";

/** A matching line as shown: at most MAX_LINE_CHARS characters, with a marker when cut. */
export function cutLine(text: string): string {
  let line = text;
  let cut = false;
  if (line.endsWith(RG_PREVIEW_MARKER)) {
    line = line.slice(0, -RG_PREVIEW_MARKER.length);
    cut = true;
  }
  if (line.length > MAX_LINE_CHARS) {
    // By code point, so an emoji is never split into half a surrogate pair.
    const chars = Array.from(line);
    if (chars.length > MAX_LINE_CHARS) {
      line = chars.slice(0, MAX_LINE_CHARS).join("");
      cut = true;
    }
  }
  return cut ? `${line} [... line cut at ${MAX_LINE_CHARS} characters]` : line;
}

/** rg's notes (a binary file, an unreadable file) after a list, one per line. */
export function withNotes(lines: string[], notes: string[]): string {
  return [...lines, ...notes.map((note) => `(rg: ${note})`)].join("\n");
}

/** rg matches line by line, so a term with a newline could never match; say so instead of "no matches". */
export function multiLineTerm(): ToolResult {
  return {
    output:
      "The term cannot contain a newline: matches are found one line at a time. Search for one line of the text.",
    error: "invalid_arguments",
  };
}
