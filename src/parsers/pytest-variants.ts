import { parsePytest } from "./pytest.js";
import type { TestStatusMap } from "./types.js";

/**
 * The per-repository forms of pytest's log SWE-bench reads (harness/log_parsers/python.py). Each is
 * our pytest parser (only lines pytest itself wrote, ids kept whole) with the id convention of that
 * repository's parser, so the ids match SWE-bench's datasets:
 * - `pytest-options` (requests, pylint): a parameter that is an absolute path keeps only its last
 *   part (`test_x[/tmp/pytest-of-u/…/a.txt]` → `test_x[/a.txt]`), since temporary paths differ run to run;
 * - `pytest-v2` (astropy, scikit-learn, sphinx): also reads `id STATUS` (`-v`) lines — ours always does;
 * - `matplotlib`: `MouseButton.LEFT` / `.RIGHT` in ids read `1` / `3`, as older releases printed them;
 * - `seaborn`: only passes and failures are read (SWE-bench's seaborn reader knows no other status).
 */
export function parsePytestOptions(log: string): TestStatusMap {
  return renamed(parsePytest(log), optionId);
}

export function parsePytestV2(log: string): TestStatusMap {
  return parsePytest(log);
}

export function parseMatplotlib(log: string): TestStatusMap {
  return renamed(parsePytest(log), (id) =>
    id.replaceAll("MouseButton.LEFT", "1").replaceAll("MouseButton.RIGHT", "3"),
  );
}

export function parseSeaborn(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  for (const [id, status] of parsePytest(log))
    if (status === "PASSED" || status === "FAILED") statuses.set(id, status);
  return statuses;
}

/** SWE-bench's `(.*?)\[(.*)\]` rule: an option starting with one `/` and holding no `*` keeps its last part. */
export function optionId(id: string): string {
  const open = id.indexOf("[");
  const close = id.lastIndexOf("]");
  if (open < 0 || close < open) return id;
  const option = id.slice(open + 1, close);
  if (!option.startsWith("/") || option.startsWith("//") || option.includes("*")) return id;
  return `${id.slice(0, open)}[/${option.split("/").at(-1)}]`;
}

function renamed(statuses: TestStatusMap, rename: (id: string) => string): TestStatusMap {
  const out: TestStatusMap = new Map();
  for (const [id, status] of statuses) out.set(rename(id), status);
  return out;
}
