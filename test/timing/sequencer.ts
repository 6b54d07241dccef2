/**
 * The order test files start in: the longest first, whatever their tier (longest-processing-time
 * scheduling). vitest's own order runs the projects one after the other and, on a fresh clone with no
 * timings cached, the larger files first — so CI started the three-minute end-to-end files last, with
 * nothing left to run beside them. Durations come from vitest's cache of the last run here, else from
 * test/timing/durations.json (seconds, written by `npx tsx scripts/test-durations.ts REPORT.json`).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** What a file takes when nothing is known of it: the typical unit-test file. */
const UNKNOWN_S = 0.5;

function committedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL("./durations.json", import.meta.url), "utf8"));
  } catch {
    return {}; // no table: cached timings or the default order decide
  }
}

export default class LongestFirst extends BaseSequencer {
  private readonly committed = committedDurations();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      if (cached && !cached.failed) return cached.duration / 1000;
      return this.committed[path] ?? UNKNOWN_S;
    };
    const failed = (spec: TestSpecification): boolean =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.failed === true;
    // A file that failed last time still goes first: its answer is the one being waited for.
    return [...files].sort((a, b) => Number(failed(b)) - Number(failed(a)) || seconds(b) - seconds(a));
  }
}
