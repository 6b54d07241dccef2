import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { TEST_HANG_GUARD_MS } from "./src/testing/time.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    // Hang guards, not speed targets: a test on a machine four times slower must still pass.
    testTimeout: TEST_HANG_GUARD_MS,
    hookTimeout: TEST_HANG_GUARD_MS,
    // Tests spawn real processes (git, pytest, node, Chromium) and part of their time is spent waiting
    // on them; on two cores a third worker keeps both busy (quiet machine: 178 s with 2, 151 s with 3).
    maxWorkers: 3,
    // Built task repositories are cached by content; tests keep theirs out of the user's ~/.cache.
    env: { ACILAB_CACHE: join(tmpdir(), "acilab-test-cache") },
  },
});
