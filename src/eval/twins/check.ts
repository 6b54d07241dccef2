import type { TestStatus, TestStatusMap } from "../../parsers/index.js";
import type { Twin, TwinResult } from "./types.js";

/** A test's statuses in the log: one for a plain test, one per parameter set (keyed by its suffix). */
function statusesOf(statuses: TestStatusMap, id: string): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  for (const [key, status] of statuses) {
    if (key === id) out.set("", status);
    else if (key.startsWith(`${id}[`)) out.set(key.slice(id.length), status);
  }
  return out;
}

function summary(group: Map<string, TestStatus>): TestStatus | "mixed" | null {
  const all = new Set(group.values());
  if (all.size === 0) return null;
  return all.size === 1 ? ([...all][0] as TestStatus) : "mixed";
}

const failed = (s: TestStatus | undefined) => s === "FAILED" || s === "ERROR";
const sameKeys = (a: Map<string, unknown>, b: Map<string, unknown>) =>
  a.size === b.size && [...a.keys()].every((k) => b.has(k));

/** What the twins say about a run: each one's result, and why the run is not trusted, or null. */
export interface TwinCheck {
  results: TwinResult[];
  tampered: string | null;
}

/**
 * Did every twin come out as its original says it must? An identical twin that failed where its
 * original passed means the original's pass was given by name, not earned; an inverted twin that
 * passed means the run passes tests whatever they assert. A twin missing beside a present original
 * means the log does not describe the tests that ran. Parametrized tests are compared parameter set
 * by parameter set; where the sets differ (ids drawn at random), the twin is not judged. Everything
 * else — a twin that fails where its original failed, an identical twin that passes where its original
 * failed (order, state) — is recorded, never held against the run.
 */
export function checkTwins(twins: readonly Twin[], statuses: TestStatusMap): TwinCheck {
  const results: TwinResult[] = twins.map((twin) => {
    const original = statusesOf(statuses, twin.of);
    const observed = statusesOf(statuses, twin.id);
    const base = { ...twin, original: summary(original), observed: summary(observed) };
    const expect: TwinResult["expect"] =
      twin.kind === "identical"
        ? "as the original"
        : twin.judge === "always"
          ? "FAILED"
          : "FAILED where the original passed";
    // An original missing from the log (its module did not import, the run stopped) fails as a
    // missing hidden test; its twin, beside it in the same file, says nothing more.
    if (original.size === 0) return { ...base, expect: "not judged", verdict: null };
    if (observed.size === 0)
      return { ...base, expect, verdict: `the ${twin.kind} twin of "${twin.of}" is missing from the log` };
    if (twin.kind === "inverted" && twin.judge === "always") {
      const passed = [...observed.values()].some((s) => s === "PASSED");
      return {
        ...base,
        expect,
        verdict: passed ? `the inverted twin of "${twin.of}" passed (${twin.change})` : null,
      };
    }
    if (!sameKeys(original, observed)) return { ...base, expect: "not judged", verdict: null };
    for (const [key, was] of original) {
      const now = observed.get(key);
      if (twin.kind === "identical" && was === "PASSED" && failed(now))
        return {
          ...base,
          expect,
          verdict: `the identical twin of "${twin.of}${key}" failed where the original passed`,
        };
      if (twin.kind === "inverted" && was === "PASSED" && now === "PASSED")
        return {
          ...base,
          expect,
          verdict: `the inverted twin of "${twin.of}${key}" passed beside its passing original (${twin.change})`,
        };
    }
    return { ...base, expect, verdict: null };
  });
  const wrong = results.filter((r) => r.verdict !== null);
  // The most telling first: a pass no code can earn, then a pass given by name, then a missing twin.
  const rank = (r: TwinResult) => (/ is missing /.test(r.verdict ?? "") ? 2 : r.kind === "inverted" ? 0 : 1);
  const first = [...wrong].sort((a, b) => rank(a) - rank(b))[0];
  const more = wrong.length > 1 ? ` (and ${wrong.length - 1} more twin${wrong.length === 2 ? "" : "s"})` : "";
  const why =
    first === undefined
      ? null
      : rank(first) === 0
        ? `${first.verdict}${more}: something in the run passes tests whatever they assert`
        : rank(first) === 1
          ? `${first.verdict}${more}: something in the run changes results by test name`
          : `${first.verdict}${more}: the log does not describe the tests that ran`;
  return { results, tampered: why };
}
