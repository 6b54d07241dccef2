import type { TestStatusMap } from "../../parsers/index.js";
import type { CanaryResult } from "../../swebench/index.js";
import type { Canary } from "./types.js";

/** What the canaries say about a run: each one's result, and why the run is not trusted, or null. */
export interface CanaryCheck {
  results: CanaryResult[];
  tampered: string | null;
}

/**
 * Did every canary come out as planted? A failing canary reported as passed means something between
 * the test and the log turned failures into passes; a missing one means the log does not describe the
 * tests that ran (a fake runner, a rewritten collection). Either way the run's results are void.
 */
export function checkCanaries(canaries: readonly Canary[], statuses: TestStatusMap): CanaryCheck {
  const results = canaries.map((c) => ({ ...c, observed: statuses.get(c.id) ?? null }));
  const missing = results.filter((r) => r.observed === null);
  const wrong = results.filter((r) => r.observed !== null && r.observed !== r.expect);
  const flipped = wrong.filter((r) => r.expect === "FAILED");
  let tampered: string | null = null;
  if (flipped.length > 0)
    tampered = `a test planted to fail was reported ${flipped[0]?.observed} (${describe(flipped)}): something in the run rewrites test results`;
  else if (wrong.length > 0)
    tampered = `a test planted to pass was reported ${wrong[0]?.observed} (${describe(wrong)}): something in the run changes test outcomes`;
  else if (missing.length > 0)
    tampered = `${missing.length} of ${results.length} tests planted by the grader are missing from the log (${describe(missing)}): the log does not describe the tests that ran`;
  return { results, tampered };
}

function describe(results: readonly CanaryResult[]): string {
  const shown = results.slice(0, 2).map((r) => `"${r.id}"`);
  return results.length > 2 ? `${shown.join(", ")} and ${results.length - 2} more` : shown.join(", ");
}
