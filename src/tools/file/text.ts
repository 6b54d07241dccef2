/** Pure text helpers shared by the viewer and the editors: line splitting, numbering, splicing. */

/** Numbered as Python's f"{i:6d}" prints: numbers stay aligned up to 999,999 lines. */
export const LINE_NUMBER_WIDTH = 6;

/** Same per-line cap as the production read tools: a minified line must not flood the context. */
export const MAX_LINE_CHARS = 2_000;

/**
 * Lines as Python's `str.splitlines()` gives them for `\n` and `\r\n` files: no terminators and no
 * phantom empty line after a final newline. Only `\n` ends a line (a stray `\r` stays in the text), so
 * line numbers always agree with the `\n` counting that str_replace uses to report match lines.
 */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

export function numbered(lineNumber: number, line: string): string {
  return `${String(lineNumber).padStart(LINE_NUMBER_WIDTH)}\t${line}`;
}

export function cutLongLine(line: string, max = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line cut: ${line.length - max} more characters]`;
}

/** Numbered lines `from..to` (1-based, inclusive, clamped to the file). */
export function numberedRange(lines: readonly string[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let n = Math.max(1, from); n <= Math.min(to, lines.length); n++)
    out.push(numbered(n, cutLongLine(lines[n - 1] ?? "")));
  return out;
}

/** 1-based line on which character `offset` lies. */
export function lineAtOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Every start index of `needle`, overlapping ones included ("aa" is found twice in "aaa"). */
export function findAll(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === "") return found;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/** The line terminator a file uses, judged by its first line break. */
export function eolOf(text: string): "\n" | "\r\n" {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

/** Text the model typed with `\n`, converted to the file's own line endings. */
export function withEol(text: string, eol: "\n" | "\r\n"): string {
  return eol === "\n" ? text : text.replace(/\r?\n/g, "\r\n");
}

/** Character offset where 1-based line `n` starts; past the last line it is the end of the text. */
function offsetOfLine(text: string, n: number): number {
  let offset = 0;
  for (let line = 1; line < n; line++) {
    const next = text.indexOf("\n", offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return offset;
}

/**
 * Replace lines `start..end` (inclusive; `end = start - 1` inserts before `start`) with `body`, which
 * is taken as whole lines: it gets a terminator if it lacks one, and a last line without a terminator
 * gets one before anything is appended after it.
 */
export function spliceLines(text: string, start: number, end: number, body: string): string {
  const eol = eolOf(text);
  const from = offsetOfLine(text, start);
  const to = offsetOfLine(text, end + 1);
  let insert = withEol(body, eol);
  if (insert !== "" && !insert.endsWith("\n")) insert += eol;
  const head = text.slice(0, from);
  const joint = head !== "" && !head.endsWith("\n") && insert !== "" ? eol : "";
  return head + joint + insert + text.slice(to);
}

/** The lines an edit changed: 1-based start, and the inclusive end in the old and in the new lines. */
export interface ChangedSpan {
  start: number;
  beforeEnd: number;
  afterEnd: number;
}

/** Smallest span outside which `before` and `after` are equal (common prefix and suffix removed). */
export function changedSpan(before: readonly string[], after: readonly string[]): ChangedSpan {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix++;
  }
  return { start: prefix + 1, beforeEnd: before.length - suffix, afterEnd: after.length - suffix };
}

/**
 * Where `needle` would match if indentation and trailing blanks were ignored: the line to point the
 * model at when its `old` text is right but its whitespace is not. undefined when there is no such place.
 */
export function looseMatchLine(text: string, needle: string): number | undefined {
  const want = splitLines(needle).map((l) => l.trim());
  while (want.length > 0 && want[0] === "") want.shift();
  while (want.length > 0 && want[want.length - 1] === "") want.pop();
  if (want.length === 0) return undefined;
  const have = splitLines(text).map((l) => l.trim());
  for (let i = 0; i + want.length <= have.length; i++) {
    const first = have[i] ?? "";
    const last = have[i + want.length - 1] ?? "";
    // The first and last lines may be partial: the model often starts `old` mid-line.
    if (!first.endsWith(want[0] ?? "") || !last.startsWith(want[want.length - 1] ?? "")) continue;
    if (want.slice(1, -1).every((w, k) => have[i + 1 + k] === w)) return i + 1;
  }
  return undefined;
}
