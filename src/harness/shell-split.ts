/**
 * A shell command cut into the simple commands it runs, so a permission rule can be checked against
 * each: `npm test && rm -rf dist` is two commands, and an allow rule for `npm test:*` must not let
 * the second one through. Not a shell parser — a tokenizer that knows quotes, escapes, comments and
 * substitutions, which is what deciding "where does one command end" needs. What it cannot see
 * (`bash -c "…"`, `xargs rm`, heredoc bodies) is as opaque to it as to Claude Code's rules.
 */

export interface Segment {
  /** The command as written, shell keywords (`then`, `do`, `!`, `{`) in front of it removed. */
  text: string;
  /** `text` without leading variable assignments (`FOO=1 rm x` → `rm x`): what deny rules also see. */
  bare: string;
}

/** Words that introduce a command without being it: `if rm x; then …` runs `rm x`. */
const LEADING_KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"]);
/** Words that close a construct and run nothing themselves. */
const CLOSING_WORDS = new Set(["fi", "done", "esac", "}", "then", "else", "do"]);
const ASSIGNMENT = /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:\\.|[^"\\])*"|\\.|[^\s'"\\])*\s+)+/;

/**
 * Every simple command in `command`: the top-level ones (split on `&&`, `||`, `;`, `|`, `&`,
 * newlines and subshell parentheses, outside quotes), then those inside `$(…)`, `` `…` `` and
 * `<(…)`, which run too.
 */
export function splitCommand(command: string): Segment[] {
  const out: Segment[] = [];
  const nested: string[] = [];
  splitTop(command, out, nested);
  // Substitutions found while splitting may hold substitutions of their own: a work list, not recursion.
  for (let i = 0; i < nested.length; i++) splitTop(nested[i] as string, out, nested);
  return out;
}

function splitTop(src: string, out: Segment[], nested: string[]): void {
  let cur = "";
  const flush = () => {
    push(cur, out);
    cur = "";
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    const next = src[i + 1];
    if (c === "\\") {
      cur += src.slice(i, i + 2);
      i += 2;
    } else if (c === "'") {
      const end = closeSingle(src, i + 1);
      cur += src.slice(i, end + 1);
      i = end + 1;
    } else if (c === '"') {
      const end = closeDouble(src, i + 1, nested);
      cur += src.slice(i, end + 1);
      i = end + 1;
    } else if ((c === "$" || c === "<" || c === ">") && next === "(") {
      const end = closeParen(src, i + 2);
      nested.push(src.slice(i + 2, end));
      cur += src.slice(i, end + 1);
      i = end + 1;
    } else if (c === "`") {
      const end = closeBacktick(src, i + 1);
      nested.push(src.slice(i + 1, end));
      cur += src.slice(i, end + 1);
      i = end + 1;
    } else if (c === "#" && (cur === "" || /\s$/.test(cur))) {
      // A comment runs to the end of the line; what is in it does not run.
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? src.length : nl;
    } else if ((c === "&" && next === "&") || (c === "|" && next === "|")) {
      flush();
      i += 2;
    } else if (c === "|") {
      flush();
      i += next === "&" ? 2 : 1;
    } else if (c === "&") {
      // `2>&1`, `&>file` and `<&3` are redirections, not a background `&`.
      if (/[<>]$/.test(cur) || next === ">") cur += c;
      else flush();
      i++;
    } else if (c === ";" || c === "\n" || c === "(" || c === ")") {
      flush();
      i++;
    } else {
      cur += c;
      i++;
    }
  }
  flush();
}

function push(raw: string, out: Segment[]): void {
  let words = raw.trim().split(/\s+/);
  while (words.length > 0 && LEADING_KEYWORDS.has(words[0] as string)) words = words.slice(1);
  const text = words.join(" ");
  if (text === "" || CLOSING_WORDS.has(text)) return;
  out.push({ text, bare: text.replace(ASSIGNMENT, "") });
}

/** Index of the closing `'` (or the end: an unclosed quote runs to the end, as the shell would say). */
function closeSingle(src: string, from: number): number {
  const end = src.indexOf("'", from);
  return end < 0 ? src.length : end;
}

function closeBacktick(src: string, from: number): number {
  let i = from;
  while (i < src.length && src[i] !== "`") i += src[i] === "\\" ? 2 : 1;
  return Math.min(i, src.length);
}

/** Index of the closing `"`; substitutions inside double quotes still run, so they are collected. */
function closeDouble(src: string, from: number, nested: string[]): number {
  let i = from;
  while (i < src.length && src[i] !== '"') {
    if (src[i] === "\\") i += 2;
    else if (src[i] === "$" && src[i + 1] === "(") {
      const end = closeParen(src, i + 2);
      nested.push(src.slice(i + 2, end));
      i = end + 1;
    } else if (src[i] === "`") {
      const end = closeBacktick(src, i + 1);
      nested.push(src.slice(i + 1, end));
      i = end + 1;
    } else i++;
  }
  return Math.min(i, src.length);
}

/** Index of the `)` closing a `(` just before `from`, past nested parentheses and quotes. */
function closeParen(src: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") i += 2;
    else if (c === "'") i = closeSingle(src, i + 1) + 1;
    else if (c === '"') i = closeDouble(src, i + 1, []) + 1;
    else {
      if (c === "(") depth++;
      else if (c === ")" && --depth === 0) return i;
      i++;
    }
  }
  return src.length;
}
