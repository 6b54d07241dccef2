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
    // Each file's standing read once: the cache's last result, else the committed table.
    const known = new Map(
      files.map((spec) => {
        const path = relative(root, spec.moduleId);
        const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
        const seconds =
          cached && !cached.failed ? cached.duration / 1000 : (this.committed[path] ?? UNKNOWN_S);
        return [spec, { failed: cached?.failed === true, seconds }] as const;
      }),
    );
    const of = (spec: TestSpecification) => known.get(spec) ?? { failed: false, seconds: UNKNOWN_S };
    // A file that failed last time still goes first: its answer is the one being waited for.
    return [...files].sort(
      (a, b) => Number(of(b).failed) - Number(of(a).failed) || of(b).seconds - of(a).seconds,
    );
  }
}
