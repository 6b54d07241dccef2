import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { TEST_HANG_GUARD_MS } from "./src/testing/time.js";
import LongestFirst from "./test/timing/sequencer.js";

/**
 * Two tiers, named by folder (CONTRIBUTING.md says which to run when):
 * - fast: the unit tests next to their sources (src/**) — no browser, no Redis, no whole task runs;
 *   `npm test`, for while you work;
 * - slow: end-to-end and cross-area tests (test/**) and the benchmarks' own tests (bench/**);
 *   `make test` (and CI) runs both.
 */
export default defineConfig({
  test: {
    // Hang guards, not speed targets: a test on a machine four times slower must still pass.
    testTimeout: TEST_HANG_GUARD_MS,
    hookTimeout: TEST_HANG_GUARD_MS,
    // Tests spawn real processes (git, pytest, node, Chromium) and part of their time is spent waiting
    // on them; on two cores a third worker keeps both busy (quiet machine: 178 s with 2, 151 s with 3).
    maxWorkers: 3,
    // Built task repositories are cached by content; tests keep theirs out of the user's ~/.cache.
    env: { ACILAB_CACHE: join(tmpdir(), "acilab-test-cache") },
    // The last line names what was skipped for want of a tool (src/testing/needs.ts).
    reporters: ["default", "./src/testing/skip-summary.ts"],
    // ACILAB_TEST_CPU=FILE: each file's in-process CPU, appended to FILE (test/timing/cpu-setup.ts).
    setupFiles: ["./test/timing/cpu-setup.ts"],
    // One process per worker for many files: importing the sources again for each file was more than
    // half the fast tier's time (alone, quiet machine: 107 s isolated, 57 s not). A test must not rely
    // on a process of its own (CONTRIBUTING.md).
    isolate: false,
    // The longest files first, across both tiers: they start at once instead of after the fast tier.
    sequence: { sequencer: LongestFirst },
    projects: [
        { extends: true, test: { name: "fast", include: ["src/**/*.test.ts"] } },
      { extends: true, test: { name: "slow", include: ["test/**/*.test.ts", "bench/**/*.test.ts"] } },
    ],
  },
});
