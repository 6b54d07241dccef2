/**
 * SWE-bench v5's per-repository Python log readers (harness/log_parsers/python.py), raw, for
 * `--rules swebench`: statuses kept as written, Python's whitespace and line rules. The readers acilab
 * grades with by default are in src/parsers (same ids, same statuses on real logs; see each file).
 */
import { parseDjango } from "../parsers/index.js";
import { SWEBENCH_STATUSES } from "./swebench-rules-pytest.js";
import { pySplit } from "./swebench-rules-python.js";

/** `SKIPPED [3] file:line: reason` is pytest's skip summary; its `[3]` is a count, not a test. */
const SKIP_COUNT = /^\[\p{Nd}+\]$/u;
const isSkipSummary = (status: string, name: string) => status === "SKIPPED" && SKIP_COUNT.test(name);
const startsWithStatus = (line: string) => SWEBENCH_STATUSES.some((s) => line.startsWith(s));
const endsWithStatus = (line: string) => SWEBENCH_STATUSES.some((s) => line.endsWith(s));

/** Python's `str.strip()`: the same whitespace `split()` uses. */
function pyStrip(s: string): string {
  return s
    .replace(/^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u, "")
    .replace(/[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u, "");
}

/** `parse_log_pytest_options`: the first token, an absolute-path parameter cut to its last part. */
export function swebenchPytestOptions(log: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const raw of log.split("\n")) {
    if (!startsWithStatus(raw)) continue;
    const line = raw.startsWith("FAILED") ? raw.replaceAll(" - ", " ") : raw;
    const [status, name] = pySplit(line);
    if (status === undefined || name === undefined || isSkipSummary(status, name)) continue;
    // `(.*?)\[(.*)\]` searched: the first `[` and the last `]`, anything after it dropped.
    const m = /^([\s\S]*?)\[([\s\S]*)\]/u.exec(name);
    let id = name;
    if (m) {
      let option = m[2] as string;
      if (option.startsWith("/") && !option.startsWith("//") && !option.includes("*"))
        option = `/${option.split("/").at(-1)}`;
      id = `${m[1]}[${option}]`;
    }
    map.set(id, status);
  }
  return map;
}

/** `parse_log_pytest_v2`: control characters and `[Nm` colour remnants removed; `STATUS id` or `id STATUS`. */
export function swebenchPytestV2(log: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const raw of log.split("\n")) {
    // eslint-style: chr(1)..chr(31) removed after the colour codes.
    const line = raw.replace(/\[(\p{Nd}+)m/gu, "").replace(/[\x01-\x1f]/g, "");
    if (startsWithStatus(line)) {
      const cut = line.startsWith("FAILED") ? (line.split(" - ")[0] as string) : line;
      const parts = pySplit(cut);
      if (parts.length >= 2 && !isSkipSummary(parts[0] as string, parts[1] as string))
        map.set(parts.slice(1).join(" "), parts[0] as string);
    } else if (endsWithStatus(line)) {
      const parts = pySplit(line);
      if (parts.length >= 2) map.set(parts.slice(0, -1).join(" "), parts.at(-1) as string);
    }
  }
  return map;
}

/** `parse_log_seaborn`: FAILED lines, `id PASSED …` lines and `PASSED id` lines only. */
export function swebenchSeaborn(log: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of log.split("\n")) {
    const parts = pySplit(line);
    if (parts.length < 2) continue;
    if (line.startsWith("FAILED")) map.set(parts[1] as string, "FAILED");
    else if (line.includes(" PASSED ")) {
      if (parts[1] === "PASSED") map.set(parts[0] as string, "PASSED");
    } else if (line.startsWith("PASSED")) map.set(parts[1] as string, "PASSED");
  }
  return map;
}

/** `parse_log_sympy`: failure headers anywhere, then `test_… E|F|ok` lines (stripped). */
export function swebenchSympy(log: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of log.matchAll(/(_*) ([^\n]*)\.py:([^\n]*) (_*)/gu)) map.set(`${m[2]}.py:${m[3]}`, "FAILED");
  for (const raw of log.split("\n")) {
    const line = pyStrip(raw);
    if (!line.startsWith("test_")) continue;
    const first = pySplit(line)[0] as string;
    if (line.endsWith(" E")) map.set(first, "ERROR");
    if (line.endsWith(" F")) map.set(first, "FAILED");
    if (line.endsWith(" ok")) map.set(first, "PASSED");
  }
  return map;
}

/** `parse_log_matplotlib`: parse_log_pytest with MouseButton names turned into their numbers. */
export function swebenchMatplotlib(log: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const raw of log.split("\n")) {
    const renamed = raw.replaceAll("MouseButton.LEFT", "1").replaceAll("MouseButton.RIGHT", "3");
    if (!startsWithStatus(renamed)) continue;
    const line = renamed.startsWith("FAILED") ? renamed.replaceAll(" - ", " ") : renamed;
    const [status, name] = pySplit(line);
    if (status === undefined || name === undefined || isSkipSummary(status, name)) continue;
    map.set(name, status);
  }
  return map;
}

/** `parse_log_django` reads only Django's fixed words: src/parsers' reader is it, rule for rule. */
export function swebenchDjango(log: string): Map<string, string> {
  return new Map(parseDjango(log));
}
