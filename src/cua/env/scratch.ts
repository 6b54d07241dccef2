/**
 * An episode's browser scratch: one directory in the temp directory holding Chromium's profile and
 * Playwright's artifacts (downloads land there first), marked with its owner so that a SIGKILLed
 * run's scratch is swept by the next start (../../owners: proof of life) and a live one's never is.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { markOwned, releaseOwned, sweepDeadOwners } from "../../owners/index.js";
import { sweepBoxLeftovers } from "../../sandbox/index.js";

export const SCRATCH_PREFIX = "acilab-browser-";
/**
 * Only marked scratch is swept: an older acilab's `acilab-chromium-*` profiles and Playwright's own
 * `playwright-artifacts-*` folders carry no owner, so nothing proves them dead.
 */
const SWEPT_PREFIXES = [SCRATCH_PREFIX] as const;

export interface BrowserScratch {
  root: string;
  /** Chromium's --user-data-dir (and its TMPDIR: the singleton socket goes with it). */
  profile: string;
  /** Playwright's artifactsDir: downloads, traces; never the shared temp directory. */
  artifacts: string;
}

let swept: Promise<string[]> | undefined;

/**
 * Remove the scratch of browsers whose owners are provably dead, and their boxes' directories, once
 * per process (before its first episode); later calls return the first sweep's result.
 */
export function sweepBrowserLeftovers(parent: string = tmpdir()): Promise<string[]> {
  swept ??= Promise.all([sweepDeadOwners(SWEPT_PREFIXES, parent), sweepBoxLeftovers()]).then((r) => r.flat());
  return swept;
}

/** A fresh, marked scratch directory (removed at exit if the episode never closes). */
export function makeScratch(parent: string = tmpdir()): BrowserScratch {
  const root = markOwned(mkdtempSync(join(parent, SCRATCH_PREFIX)));
  const profile = join(root, "profile");
  const artifacts = join(root, "artifacts");
  mkdirSync(profile);
  mkdirSync(artifacts);
  return { root, profile, artifacts };
}

/** The scratch a profile made by makeScratch belongs to, or undefined for any other directory. */
export function scratchOfProfile(profile: string): string | undefined {
  const root = dirname(profile);
  return basename(profile) === "profile" && basename(root).startsWith(SCRATCH_PREFIX) ? root : undefined;
}

/** Remove a scratch directory now (the episode is over). */
export function releaseScratch(root: string): void {
  releaseOwned(root);
}
