import { describe, expect, it } from "vitest";
import { isSourcePath } from "./paths.js";

describe("isSourcePath", () => {
  it("takes the library's code and leaves out examples, docs, benchmarks, scripts and packaging", () => {
    for (const p of [
      "toolz/itertoolz.py",
      "src/parse/core.py",
      "src/pkg/scripts/cli.py",
      "lib/index.ts",
      "parse.py",
    ])
      expect(isSourcePath(p), p).toBe(true);
    for (const p of [
      "examples/graph.py",
      "docs/source/conf.py",
      "doc/conf.py",
      "bench/bench_parse.py",
      "benchmarks/run.py",
      "scripts/release.py",
      "setup.py",
      "tests/test_core.py",
      "web/node_modules/x/index.js",
      "README.md",
    ])
      expect(isSourcePath(p), p).toBe(false);
  });
});
