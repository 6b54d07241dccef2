import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real processes (git, pytest, node); two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
