import { posix } from "node:path";
import type { LogParserName } from "../parsers/index.js";

/** Lines of a failure message kept in the issue: enough to show actual vs expected, not a traceback. */
const MAX_MESSAGE_LINES = 6;
/** Lines of a test body shown as the reproduction. */
const MAX_REPRO_LINES = 15;
/** Other failing checks named after the first. */
const MAX_MORE_TESTS = 3;

export interface FailingTest {
  id: string;
  /** The test's body as written in its file (undefined when it could not be found). */
  body: string | undefined;
}

export interface IssueInput {
  logParser: LogParserName;
  language: "python" | "typescript" | "javascript";
  failing: FailingTest[];
  /** The log of the run in which they fail. */
  log: string;
  /** The gold patch: its files and changed lines must not appear in the text. */
  patch: string;
}

/** `tests/test_a.py::TestParse::test_lower_month[x]` → "parse: lower month"; node names stay as written. */
export function testInWords(id: string, parser: LogParserName): string {
  if (parser !== "pytest") return id.split(" > ").join(": ");
  const parts = id.split("::").slice(1);
  const words = (s: string) =>
    s
      .replace(/\[.*\]$/, "")
      .replace(/^test_?|^Test/, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/_+/g, " ")
      .trim()
      .toLowerCase();
  return parts.map(words).filter(Boolean).join(": ") || id;
}

/** The assertion lines pytest printed for one failing test (its `E   ` lines). */
function pytestMessage(log: string, id: string): string[] {
  const parts = id.split("::").slice(1);
  const title = parts.join(".");
  const lines = log.split("\n");
  const header = lines.findIndex((l) => new RegExp(`^_{3,} ${escapeRegExp(title)} _{3,}$`).test(l.trim()));
  if (header < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(header + 1)) {
    if (/^_{3,} .* _{3,}$/.test(line.trim()) || /^={3,}/.test(line)) break;
    if (line.startsWith("E ")) out.push(line.slice(1).trim());
  }
  return out;
}

/** The `error`, `expected` and `actual` entries of node's TAP YAML block for one failing test. */
function tapMessage(log: string, id: string): string[] {
  const name = id.split(" > ").pop() ?? id;
  const lines = log.split("\n");
  const at = lines.findIndex((l) =>
    new RegExp(`^\\s*not ok \\d+ - ${escapeRegExp(name)}(\\s+#.*)?$`).test(l),
  );
  if (at < 0) return [];
  const indent = (l: string) => l.length - l.trimStart().length;
  const base = indent(lines[at] as string) + 2;
  const out: string[] = [];
  let key = "";
  for (const line of lines.slice(at + 1)) {
    const t = line.trim();
    if (t === "---") continue;
    if (t === "..." || /^\s*(not )?ok \d+ /.test(line) || /^\s*# Subtest:/.test(line)) break;
    const entry = indent(line) === base ? /^\s*(\w+):\s?(.*)$/.exec(line) : null;
    if (entry) {
      key = entry[1] as string;
      const value = (entry[2] as string).trim();
      if (key === "expected" || key === "actual") out.push(`${key}: ${value}`);
      else if (key === "error" && value && value !== "|-" && value !== "|")
        out.push(value.replace(/^'|'$/g, ""));
      continue;
    }
    if (!t) continue;
    if (key === "error") out.push(t);
    if (key === "expected" || key === "actual") out.push(`  ${t}`);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** What the text must never contain: the patch's file paths and names, and its changed lines. */
export function patchSecrets(patch: string): string[] {
  const secrets = new Set<string>();
  for (const line of patch.split("\n")) {
    const file = /^diff --git a\/(\S+) b\/(\S+)$/.exec(line);
    if (file) {
      for (const p of [file[1] as string, file[2] as string]) {
        secrets.add(p);
        secrets.add(posix.basename(p));
      }
      continue;
    }
    if (/^[-+][^-+]/.test(line)) {
      const code = line.slice(1).trim();
      if (code.length >= 4) secrets.add(code);
    }
  }
  return [...secrets];
}

/** The first secret of the patch the text gives away, or undefined when it names none. */
export function leak(text: string, patch: string): string | undefined {
  return patchSecrets(patch).find((s) => text.includes(s));
}

function dedent(text: string): string[] {
  const lines = text.split("\n");
  const indents = lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length);
  const cut = Math.min(...indents, Number.POSITIVE_INFINITY);
  return lines
    .map((l) => l.slice(Number.isFinite(cut) ? cut : 0))
    .filter((l, i, all) => l.trim() || (i > 0 && i < all.length - 1));
}

/** A test body as a reproduction: docstring and braces dropped, capped. */
function reproduction(body: string, language: IssueInput["language"]): string[] {
  let text = body.trim();
  if (language !== "python" && text.startsWith("{") && text.endsWith("}")) text = text.slice(1, -1);
  let lines = dedent(text.replace(/^\n+|\n+$/g, ""));
  if (language === "python" && /^("""|''')/.test(lines[0]?.trim() ?? "")) {
    const quote = lines[0]?.trim().slice(0, 3) ?? '"""';
    const endAt = lines.findIndex((l, i) =>
      i === 0 ? l.trim().length > 3 && l.trim().endsWith(quote) : l.includes(quote),
    );
    lines = lines.slice(endAt + 1);
  }
  if (lines.length > MAX_REPRO_LINES) lines = [...lines.slice(0, MAX_REPRO_LINES), "..."];
  return lines;
}

/**
 * A bug report built from the failing tests alone — symptom (the check in words and what went
 * wrong), reproduction (the test's body) and expected behaviour — that names no file of the patch
 * and none of its changed lines: any line that would is left out.
 */
export function problemStatement(input: IssueInput): string {
  const secrets = patchSecrets(input.patch);
  const clean = (lines: string[]) => lines.filter((l) => !secrets.some((s) => l.includes(s)));
  const [first, ...others] = input.failing;
  if (!first) throw new Error("problemStatement: no failing test to describe");
  const what = testInWords(first.id, input.logParser);
  const message = clean(
    input.logParser === "pytest" ? pytestMessage(input.log, first.id) : tapMessage(input.log, first.id),
  ).slice(0, MAX_MESSAGE_LINES);
  const raised = message
    .map((l) => /^(\w*(Error|Exception))\b/.exec(l)?.[1])
    .find((e) => e && e !== "AssertionError");
  const title = raised ? `${capital(what)}: raises ${raised}` : `${capital(what)}: wrong result`;
  const out = [title, ""];
  out.push(
    raised
      ? `When I do what the steps below do, I get ${raised} instead of a result.`
      : "The steps below give a different result from the one they should.",
  );
  const repro = first.body === undefined ? [] : clean(reproduction(first.body, input.language));
  if (repro.length > 0) out.push("", "Steps to reproduce:", "", ...repro.map((l) => `    ${l}`));
  if (message.length > 0) out.push("", "What happens:", "", ...message.map((l) => `    ${l}`));
  out.push(
    "",
    `Expected: the check "${what}" holds — the steps above run without an error or a wrong value.`,
  );
  if (others.length > 0) {
    const named = others.slice(0, MAX_MORE_TESTS).map((t) => `"${testInWords(t.id, input.logParser)}"`);
    const more = others.length > MAX_MORE_TESTS ? ` and ${others.length - MAX_MORE_TESTS} more` : "";
    out.push("", `The same goes wrong for ${named.join(", ")}${more}.`);
  }
  return `${out.join("\n")}\n`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
