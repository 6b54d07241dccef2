import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real processes (git, pytest, node); two cores, so keep the pool small.
    maxWorkers: 2,
    // Built task repositories are cached by content; tests keep theirs out of the user's ~/.cache.
    env: { ACILAB_CACHE: join(tmpdir(), "acilab-test-cache") },
  },
});
