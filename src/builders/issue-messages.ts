import { z } from "zod";
import { findJsonReports, type LogParserName } from "../parsers/index.js";

/**
 * What went wrong in one failing test, as its runner reported it — the lines an issue's "What
 * happens" shows: pytest's `E` lines, TAP's YAML (expected/actual, found/wanted, the diff), mocha's
 * `err` and jest's or vitest's failure message from their JSON reports.
 */
export function failureMessage(parser: LogParserName, log: string, id: string): string[] {
  switch (parser) {
    case "pytest":
      return pytestMessage(log, id);
    case "mocha-json":
      return mochaMessage(log, id);
    case "jest-json":
      return jestMessage(log, id);
    default:
      return tapMessage(log, id);
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The lines of one test's failure section (`____ Class.test ____`; a pytest ≥ 9 subtest's is
 * `____ Class.test (xs=[1, 2]) ____`), or [] when the log has none.
 */
function pytestSection(log: string, id: string): string[] {
  const title = id.split("::").slice(1).join(".");
  const lines = log.split("\n");
  // pytest pads the title with underscores to its line width: a long one (a subtest's) gets one each side.
  const header = new RegExp(`^_+ ${escapeRegExp(title)}(?: [[(].*)? _+$`);
  const at = lines.findIndex((l) => header.test(l.trim()));
  if (at < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^_+ .* _+$/.test(line.trim()) || /^={3,}/.test(line)) break;
    out.push(line);
  }
  return out;
}

/** The assertion lines pytest printed for one failing test (its `E   ` lines). */
function pytestMessage(log: string, id: string): string[] {
  return pytestSection(log, id)
    .filter((l) => l.startsWith("E "))
    .map((l) => l.slice(1).trim());
}

/** The line pytest marked with ">" in a failing test's traceback: where it went wrong. */
export function pytestFailingLine(log: string, id: string): string | undefined {
  return pytestSection(log, id)
    .find((l) => l.startsWith(">"))
    ?.slice(1);
}

/**
 * The `error`, `expected`/`actual` (node's runner), `found`/`wanted` and the one-line `diff` (tap's)
 * entries of the TAP YAML block of one failing test.
 */
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
  const diff: string[] = [];
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
      else if (key === "wanted" || key === "found")
        out.push(`${key === "wanted" ? "expected" : "actual"}: ${value}`);
      else if (key === "error" && value && value !== "|-" && value !== "|")
        out.push(value.replace(/^'|'$/g, ""));
      continue;
    }
    if (!t) continue;
    if (key === "error") out.push(t);
    if (key === "expected" || key === "actual" || key === "wanted" || key === "found") out.push(`  ${t}`);
    if (key === "diff") diff.push(t);
  }
  // tap's `diff: --- expected +++ actual`: one line each way reads as what was wanted and found.
  const removed = diff.filter((l) => /^-(?!--)/.test(l));
  const added = diff.filter((l) => /^\+(?!\+\+)/.test(l));
  if (out.length === 0 && removed.length === 1 && added.length === 1)
    out.push(`expected: ${(removed[0] as string).slice(1)}`, `actual: ${(added[0] as string).slice(1)}`);
  return out;
}

const MochaFailure = z.object({
  fullTitle: z.string(),
  err: z
    .object({ message: z.string().optional(), expected: z.unknown(), actual: z.unknown() })
    .partial()
    .optional(),
});
const MochaReport = z.object({ stats: z.object({}).passthrough(), failures: z.array(MochaFailure) });

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/** mocha's `err` of one failure: its message, and expected vs actual when the assertion gave them. */
function mochaMessage(log: string, id: string): string[] {
  for (const report of findJsonReports(log, /\{\s*"stats"/.source, MochaReport).reverse()) {
    const failure = report.failures.find((f) => f.fullTitle === id);
    if (!failure?.err) continue;
    const { message, expected, actual } = failure.err;
    return [
      ...(message ? message.split("\n").slice(0, 3) : []),
      ...(expected !== undefined || actual !== undefined
        ? [`expected: ${shown(expected)}`, `actual: ${shown(actual)}`]
        : []),
    ];
  }
  return [];
}

const JestReport = z.object({
  testResults: z.array(
    z.object({
      assertionResults: z.array(
        z.object({
          ancestorTitles: z.array(z.string()),
          title: z.string(),
          failureMessages: z.array(z.string()).optional(),
        }),
      ),
    }),
  ),
});

/** jest's or vitest's failure message of one test, up to its stack trace. */
function jestMessage(log: string, id: string): string[] {
  const start = /\{\s*"(?:num[A-Za-z]+|testResults|success|startTime)"/.source;
  for (const report of findJsonReports(log, start, JestReport).reverse())
    for (const file of report.testResults)
      for (const t of file.assertionResults) {
        if ([...t.ancestorTitles, t.title].join(" > ") !== id) continue;
        const message = t.failureMessages?.[0];
        if (!message) return [];
        const stack = message.search(/\n\s+at /);
        return (stack < 0 ? message : message.slice(0, stack))
          .replace(/\x1b\[[0-9;]*m/g, "")
          .split("\n")
          .map((l) => l.trimEnd())
          .filter((l) => l.trim() !== "");
      }
  return [];
}
