/**
 * `tasks validate`'s answer for published rows, per row and per repository: can it run here (and if
 * not, why: repository missing, no recipe, interpreter missing, a pin the indexes lack, a build that
 * fails), does the gold patch resolve it, does the untouched base fail every FAIL_TO_PASS test. Pure.
 */
import type { Validation } from "./validate.js";

export type Readiness =
  | { instance_id: string; repo: string; state: "ready" }
  | { instance_id: string; repo: string; state: "invalid"; problems: string[] }
  /** The gold runs disagreed test by test: the verdict is a draw (sympy's hash seed, say), not the row's. */
  | { instance_id: string; repo: string; state: "flaky"; problems: string[] }
  | { instance_id: string; repo: string; state: "unavailable"; cause: UnavailableCause; reason: string };

export type UnavailableCause = "repository" | "recipe" | "interpreter" | "pin" | "build" | "row" | "network";

/** The cause a reason names, from the words acilab's loaders and builders use for it. */
export function unavailableCause(reason: string): UnavailableCause {
  if (/^repository .* (is missing|cannot give commit)/.test(reason)) return "repository";
  if (/^no recipe for/.test(reason)) return "recipe";
  if (/^interpreter /.test(reason)) return "interpreter";
  if (/not in the package indexes|cannot be installed|requires a different Python/.test(reason)) return "pin";
  if (/^malformed row|^the row is not|"repo" is missing|recipe installs the requirements/.test(reason))
    return "row";
  return "build";
}

/** One validated row's readiness: environment_unavailable in any run makes it unavailable. */
export function readinessOf(repo: string, v: Validation): Readiness {
  const unavailable = [...v.gold, v.base].find((r) => r.outcome === "environment_unavailable");
  if (unavailable)
    return {
      instance_id: v.instance_id,
      repo,
      state: "unavailable",
      cause: unavailableCause(unavailable.detail),
      reason: unavailable.detail,
    };
  // Gold that fails only because its tests reach for the network cannot pass here: that is a condition
  // of this machine, named as such, not a fault of the row.
  const offline = v.gold.find((r) => / — needs network: /.test(r.detail));
  if (!v.ok && offline)
    return {
      instance_id: v.instance_id,
      repo,
      state: "unavailable",
      cause: "network",
      reason: offline.detail.slice(offline.detail.indexOf("needs network")),
    };
  if (v.ok) return { instance_id: v.instance_id, repo, state: "ready" };
  return { instance_id: v.instance_id, repo, state: v.flaky ? "flaky" : "invalid", problems: v.problems };
}

export interface RepoReadiness {
  repo: string;
  rows: number;
  ready: number;
  invalid: number;
  flaky: number;
  /** Unavailable rows by cause. */
  unavailable: Partial<Record<UnavailableCause, number>>;
}

/** Per repository, in order of first appearance: rows, ready, invalid, unavailable by cause. */
export function readinessTable(rows: readonly Readiness[]): RepoReadiness[] {
  const byRepo = new Map<string, RepoReadiness>();
  for (const r of rows) {
    let entry = byRepo.get(r.repo);
    if (!entry) {
      entry = { repo: r.repo, rows: 0, ready: 0, invalid: 0, flaky: 0, unavailable: {} };
      byRepo.set(r.repo, entry);
    }
    entry.rows++;
    if (r.state === "ready") entry.ready++;
    else if (r.state === "invalid") entry.invalid++;
    else if (r.state === "flaky") entry.flaky++;
    else entry.unavailable[r.cause] = (entry.unavailable[r.cause] ?? 0) + 1;
  }
  return [...byRepo.values()];
}

/** "3 pin, 1 interpreter" — the unavailable counts in words, or "-". */
export function causesInWords(unavailable: RepoReadiness["unavailable"]): string {
  const parts = Object.entries(unavailable).map(([cause, n]) => `${n} ${cause}`);
  return parts.length > 0 ? parts.join(", ") : "-";
}
