import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { synth } from "../../src/builders/synth.js";
import { checkMutants, commitFiles, initRepo } from "../../src/builders/testing.js";

const scratch = mkdtempSync(join(tmpdir(), "acilab-synth-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const TS_LIB = `export function sum(values: number[]): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i] ?? 0;
  return total;
}

export function range(start: number, end: number, step = 1): number[] {
  const out: number[] = [];
  for (let v = start; v < end; v += step) out.push(v);
  return out;
}

export function isAdult(age: number): boolean {
  return age >= 18 && !Number.isNaN(age);
}
`;
const TS_TESTS = `import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { isAdult, range, sum } from "../src/math.ts";

describe("math", () => {
  it("sums numbers", () => {
    assert.equal(sum([1, 2, 3]), 6);
  });
  it("builds a range", () => {
    assert.deepEqual(range(0, 4), [0, 1, 2, 3]);
  });
  it("builds a range with a step", () => {
    assert.deepEqual(range(0, 6, 2), [0, 2, 4]);
  });
  it("tells adults", () => {
    assert.equal(isAdult(18), true);
    assert.equal(isAdult(17), false);
  });
});
`;

describe("tasks synth (TypeScript)", () => {
  it("plants bugs in a TypeScript repository run by node's test runner", async () => {
    const repo = join(scratch, "tslib");
    await initRepo(repo);
    await commitFiles(
      repo,
      {
        "package.json": '{"name":"tslib","type":"module"}\n',
        "src/math.ts": TS_LIB,
        "test/math.test.ts": TS_TESTS,
      },
      "lib",
    );
    const out = join(scratch, "ts", "synth.jsonl");
    const report = await synth({ repo, out, max: 2, seed: 1 });
    expect(report.setup.logParser).toBe("node-tap");
    expect(report.setup.command).toContain("{tsx}");
    await checkMutants(report, join(scratch, "ts"));
  });
});
