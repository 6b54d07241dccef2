/**
 * What twins add to grading outside the test run: reading a graded file's syntax tree, finding its
 * hidden tests and writing their twins — per file, for a pytest module and a node:test file of 100
 * tests each (all hidden, so the 8 + 8 limit is what gets planted). CPU only, so it measures cleanly
 * on a busy machine, unlike the sandboxed runs around it.
 */
import { performance } from "node:perf_hooks";
import { seededRandom } from "../src/builders/index.js";
import { planTwins, twinParsers } from "../src/eval/index.js";
import type { LogParserName } from "../src/parsers/index.js";
import { quantile } from "./stats.js";

export interface TwinPlanningRow {
  name: string;
  n: number;
  medianMs: number;
  p95Ms: number;
  targetMs: undefined;
}

const TESTS = 100;

function pythonModule(): { text: string; ids: string[] } {
  const tests = Array.from(
    { length: TESTS },
    (_, i) =>
      `def test_case_${i}_keeps_its_value():\n    value = compute(${i})\n    assert value == ${i * 3}\n    assert describe(value) == "case ${i}"\n    with pytest.raises(ValueError):\n        compute(-${i + 1})\n`,
  );
  return {
    text: `import pytest\n\nfrom lib import compute, describe\n\n\n${tests.join("\n\n")}`,
    ids: tests.map((_, i) => `tests/test_lib.py::test_case_${i}_keeps_its_value`),
  };
}

function nodeFile(): { text: string; ids: string[] } {
  const tests = Array.from(
    { length: TESTS },
    (_, i) =>
      `  test("case ${i} keeps its value", () => {\n    const value = compute(${i});\n    assert.equal(value, ${i * 3});\n    assert.deepStrictEqual(describe(value), ["case", ${i}]);\n    assert.throws(() => compute(-${i + 1}), RangeError);\n  });`,
  );
  return {
    text: `import assert from "node:assert/strict";\nimport { describe as suite, test } from "node:test";\nimport { compute, describe } from "../src/lib.ts";\n\nsuite("lib", () => {\n${tests.join("\n\n")}\n});\n`,
    ids: tests.map((_, i) => `lib > case ${i} keeps its value`),
  };
}

export async function benchTwinPlanning(iterations = 200): Promise<TwinPlanningRow[]> {
  const rows: TwinPlanningRow[] = [];
  for (const [parser, path, file, command] of [
    ["pytest", "tests/test_lib.py", pythonModule(), ["python3", "-m", "pytest", "tests"]],
    ["node-tap", "test/lib.test.ts", nodeFile(), ["node", "--test", "test/lib.test.ts"]],
  ] as const) {
    const parserFor = await twinParsers(parser as LogParserName);
    const samples: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const t = performance.now();
      const plan = planTwins({
        parser: parser as LogParserName,
        files: [{ path, text: file.text }],
        tests: { FAIL_TO_PASS: file.ids, PASS_TO_PASS: [] },
        testCommand: [...command],
        random: seededRandom(i),
        parserFor,
      });
      samples.push(performance.now() - t);
      if (plan.twins.length !== 16)
        throw new Error(`bench: planned ${plan.twins.length} twins, not 16 (${plan.note})`);
    }
    samples.sort((a, b) => a - b);
    rows.push({
      name: `grading: planning twins, one ${parser === "pytest" ? "pytest" : "node:test"} file of ${TESTS} tests (8 + 8)`,
      n: iterations,
      medianMs: quantile(samples, 0.5),
      p95Ms: quantile(samples, 0.95),
      targetMs: undefined,
    });
  }
  return rows;
}
