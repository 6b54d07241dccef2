/**
 * The few places where Python's string and `re` semantics differ from JavaScript's and SWE-bench's
 * grading depends on them. Getting these exactly right is what makes `--rules swebench` give the same
 * verdict as SWE-bench on a hostile log, not just on a tidy one. (Unicode tables: Python 3.11 has
 * Unicode 14, node 20 a newer one; characters added since differ, none of them plausible in a log.)
 */

/**
 * What `str.isspace()` accepts, so what `str.split()` with no argument and `re`'s `\s` split on.
 * JavaScript's `\s` differs: it lacks \x1c-\x1f and \x85 and adds \ufeff.
 */
const SPACE_CHARS =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** Python's `\s` in a `u`-flag RegExp source. */
export const PY_SPACE = `[${SPACE_CHARS}]`;
/** Python's `\d`: any Unicode decimal digit (category Nd), not just 0-9. */
export const PY_DIGIT = "\\p{Nd}";
/** Python's `\w`: letters, numbers of every kind, and the underscore (checked over all code points). */
export const PY_WORD = "[\\p{L}\\p{N}_]";

const SPACE_RUN = new RegExp(`${PY_SPACE}+`, "u");

/** `s.split()`: split on runs of Python whitespace, dropping empty strings at both ends. */
export function pySplit(s: string): string[] {
  return s.split(SPACE_RUN).filter((part) => part !== "");
}

/**
 * What `open(path).read()` returns for a file holding `text`: text mode turns `\r\n` and a lone `\r`
 * into `\n` (universal newlines), so a progress bar's carriage returns start new lines.
 */
export function pyUniversalNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

const DECIMAL = /\p{Nd}/u;

/** `int(s)` for a `-?\d+` match: each Nd digit's value is its distance from the 0 of its run of ten. */
export function pyInt(digits: string): number {
  let value = 0;
  for (const ch of digits.replace(/^-/, "")) {
    const code = ch.codePointAt(0) as number;
    let zero = code;
    // Unicode encodes every decimal digit set as ten consecutive code points from 0 to 9.
    while (DECIMAL.test(String.fromCodePoint(zero - 1))) zero--;
    value = value * 10 + ((code - zero) % 10);
  }
  return digits.startsWith("-") ? -value : value;
}
