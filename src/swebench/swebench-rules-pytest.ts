import { pySplit } from "./swebench-rules-python.js";

/** SWE-bench's TestStatus values, in the order its enum declares them. */
export const SWEBENCH_STATUSES = ["FAILED", "PASSED", "SKIPPED", "ERROR", "XFAIL"] as const;

/** `SKIPPED [3] file:line: reason` is pytest's skip summary; its `[3]` is a count, not a test. */
const SKIP_COUNT = /^\[\p{Nd}+\]$/u;

/**
 * SWE-bench v5's `parse_log_pytest` (harness/log_parsers/python.py), raw: a line that *starts* with a
 * status word (no trimming, no colour stripping, `PASSEDX` counts) is split on whitespace; the first
 * token is kept as the status exactly as written (`ERROR:` stays `ERROR:`), the second is the id. On
 * FAILED lines every ` - ` first becomes a space, so the message never reaches the id. A later line for
 * the same id overwrites the status but keeps the id's first position, as a Python dict does.
 *
 * Differences from our own parser (pytest.ts), all of which SWE-bench's verdicts depend on: ids are
 * cut at their first whitespace, `-v` lines (`id STATUS`) are never read, XPASS lines are not read,
 * and a status line anywhere in the log counts, whoever printed it.
 */
export function parseLogPytest(log: string): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const raw of log.split("\n")) {
    if (!SWEBENCH_STATUSES.some((status) => raw.startsWith(status))) continue;
    const line = raw.startsWith("FAILED") ? raw.replaceAll(" - ", " ") : raw;
    const [status, id] = pySplit(line);
    if (status === undefined || id === undefined) continue;
    if (status === "SKIPPED" && SKIP_COUNT.test(id)) continue;
    statuses.set(id, status);
  }
  return statuses;
}
