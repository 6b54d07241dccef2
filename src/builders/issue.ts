import { posix } from "node:path";
import type { LogParserName } from "../parsers/index.js";
import { type AddedApi, describeApi, requestApi } from "./feature.js";
import { failureMessage, pytestFailingLine } from "./issue-messages.js";

/** Lines of a failure message kept in the issue: enough to show actual vs expected, not a traceback. */
const MAX_MESSAGE_LINES = 6;
/** Lines of a test body shown as the reproduction. */
const MAX_REPRO_LINES = 15;
/** Other failing checks named after the first. */
const MAX_MORE_TESTS = 3;
/** Lines before the failing one kept when a long test body is cut around it. */
const REPRO_TAIL_LINES = 5;

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
  /** For a feature (`--kind feature`): the API the change adds, which the text asks for. */
  adds?: readonly AddedApi[];
}

/** Parameter text shown of a parametrized test: enough to tell the cases apart. */
const MAX_PARAM_CHARS = 60;

/**
 * `tests/test_a.py::TestParse::test_lower_month[x]` → "parse: lower month (with x)"; node names stay as
 * written. The parameters are kept: parametrized cases of one test are different checks.
 */
export function testInWords(id: string, parser: LogParserName): string {
  if (parser !== "pytest") {
    // tap names each file's tests under the file: the check is the rest.
    const parts = id.split(" > ");
    const named = parts.length > 1 && /\.[cm]?[jt]sx?$/.test(parts[0] ?? "") ? parts.slice(1) : parts;
    return named.join(": ");
  }
  const parts = id.split("::").slice(1);
  const param = /\[(.*)\]$/.exec(parts.at(-1) ?? "")?.[1];
  const words = (s: string) =>
    s
      .replace(/\[.*\]$/, "")
      .replace(/^test_?|^Test/, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/_+/g, " ")
      .trim()
      .toLowerCase();
  const name = parts.map(words).filter(Boolean).join(": ") || id;
  if (!param) return name;
  return `${name} (with ${param.length > MAX_PARAM_CHARS ? `${param.slice(0, MAX_PARAM_CHARS)}…` : param})`;
}

/** Terminal colour and cursor codes: a log a repository forces `--color=yes` on is read as text. */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, "");
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

/**
 * A test body as a reproduction: docstring and braces dropped, dedented, capped. When the body is
 * longer than the cap, its head is kept and then the lines up to `failingLine` (the line the runner
 * pointed at), so the step that goes wrong is never cut off.
 */
function reproduction(body: string, language: IssueInput["language"], failingLine?: string): string[] {
  // Only blank lines are stripped at the ends: trimming the first line's indentation would leave it
  // at column 0 and every other line indented (the dedent below would then cut nothing).
  let text = body.replace(/^(?:[ \t]*\n)+/, "").replace(/\s+$/, "");
  if (language !== "python" && text.trim().startsWith("{") && text.endsWith("}"))
    text = text.trim().slice(1, -1);
  let lines = dedent(text.replace(/^\n+|\n+$/g, ""));
  if (language === "python" && /^("""|''')/.test(lines[0]?.trim() ?? "")) {
    const quote = lines[0]?.trim().slice(0, 3) ?? '"""';
    const endAt = lines.findIndex((l, i) =>
      i === 0 ? l.trim().length > 3 && l.trim().endsWith(quote) : l.includes(quote),
    );
    lines = lines.slice(endAt + 1);
  }
  if (lines.length <= MAX_REPRO_LINES) return lines;
  // The last line that reads like it: pytest points at the statement that raised, and an earlier
  // identical line passed (or the traceback would have pointed at it).
  const at = failingLine ? lines.findLastIndex((l) => l.trim() === failingLine.trim()) : -1;
  if (at < MAX_REPRO_LINES) return [...lines.slice(0, MAX_REPRO_LINES), "..."];
  const tail = REPRO_TAIL_LINES;
  return [...lines.slice(0, MAX_REPRO_LINES - tail - 1), "...", ...lines.slice(at - tail + 1, at + 1)];
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
  const log = stripAnsi(input.log);
  const what = testInWords(first.id, input.logParser);
  const message = clean(failureMessage(input.logParser, log, first.id)).slice(0, MAX_MESSAGE_LINES);
  const raised = message
    .map((l) => /^(\w*(Error|Exception))\b/.exec(l)?.[1])
    .find((e) => e && e !== "AssertionError");
  const failingLine = input.logParser === "pytest" ? pytestFailingLine(log, first.id) : undefined;
  const repro = first.body === undefined ? [] : clean(reproduction(first.body, input.language, failingLine));
  const steps = repro.length > 0;
  const adds = input.adds ?? [];
  const out: string[] = [];
  if (adds.length > 0) {
    // A feature request: what to add, then how the tests use it.
    out.push(`Add ${describeApi(adds)}`, "");
    const asked = adds.map(requestApi);
    out.push(
      `Please add ${asked.length > 1 ? `${asked.slice(0, -1).join(", ")} and ${asked.at(-1)}` : asked[0]}.${steps ? " The steps below show how it is used and what it should give." : ` The check "${what}" shows what it should give.`}`,
    );
  } else {
    out.push(raised ? `${capital(what)}: raises ${raised}` : `${capital(what)}: wrong result`, "");
    out.push(
      steps
        ? raised
          ? `When I do what the steps below do, I get ${raised} instead of a result.`
          : "The steps below give a different result from the one they should."
        : raised
          ? `The check "${what}" gets ${raised} instead of a result.`
          : `The check "${what}" gives a different result from the one it should.`,
    );
  }
  if (steps) out.push("", "Steps to reproduce:", "", ...repro.map((l) => `    ${l}`));
  if (message.length > 0) out.push("", "What happens:", "", ...message.map((l) => `    ${l}`));
  out.push("", expectation(what, steps, first.body !== undefined && expectsError(first.body)));
  // Other checks by name, each once, never the first one again (two ids can read the same in words).
  const otherNames = [...new Set(others.map((t) => testInWords(t.id, input.logParser)))].filter(
    (n) => n !== what,
  );
  if (otherNames.length > 0) {
    const named = otherNames.slice(0, MAX_MORE_TESTS).map((n) => `"${n}"`);
    const more = otherNames.length > MAX_MORE_TESTS ? ` and ${otherNames.length - MAX_MORE_TESTS} more` : "";
    out.push("", `The same goes wrong for ${named.join(", ")}${more}.`);
  }
  return `${out.join("\n")}\n`;
}

/** A test that checks an error is raised: pytest.raises, assertRaises, assert.throws, toThrow, t.rejects… */
const EXPECTS_ERROR =
  /\b(?:pytest\.raises|assertRaises(?:Regex)?|assert\.(?:throws|rejects)|t\.(?:throws|rejects)|toThrow\w*|rejects\.toThrow)\b/;

export function expectsError(body: string): boolean {
  return EXPECTS_ERROR.test(body);
}

/** The closing line: what should happen, saying so when the check wants an error raised. */
function expectation(what: string, steps: boolean, wantsError: boolean): string {
  if (steps)
    return wantsError
      ? `Expected: the check "${what}" holds — the steps above raise the error it expects, and give no wrong value.`
      : `Expected: the check "${what}" holds — the steps above run without an error or a wrong value.`;
  return wantsError
    ? `Expected: the check "${what}" holds: the error it expects is raised.`
    : `Expected: the check "${what}" holds, with no error and no wrong value.`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
