/**
 * How long grading bookkeeping takes at SWE-bench's size: parse 2,294 pytest logs (the test split),
 * grade each with the same pure `gradeLog` the grader uses (parse, look up, bucket, the hardened
 * rules' checks) and build the run summary. The sandboxed test runs are
 * not in it — this is the part that is ours alone, and it should vanish next to them (target ≤ 1 s).
 */
import { performance } from "node:perf_hooks";
import { gradeLog } from "../src/eval/index.js";
import { buildSummary, type Instance, type InstanceReport, type Prediction } from "../src/swebench/index.js";
import { quantile } from "./stats.js";

export interface GradingBenchRow {
  name: string;
  value: number;
  unit: string;
}

/** SWE-bench's test split. */
const INSTANCES = 2_294;
const TESTS_PER_INSTANCE = 50;
const TARGET_MS = 1_000;
const START = ">>>>> Start Test Output";
const END = ">>>>> End Test Output";

/** A small deterministic generator, so every run parses the same logs. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Synthetic {
  instance: Instance;
  log: string;
}

/** One instance and its eval log in pytest -rA form: progress dots, then the short summary. */
function synthesize(index: number, random: () => number): Synthetic {
  const id = `repo${index % 12}__pkg-${10_000 + index}`;
  const tests: string[] = [];
  for (let t = 0; t < TESTS_PER_INSTANCE; t++) {
    const file = `tests/test_module_${t % 5}.py`;
    tests.push(
      t % 7 === 0 ? `${file}::TestCase::test_param[${t}-value-${t * 3}]` : `${file}::test_case_${t}`,
    );
  }
  const lines = [
    "+ pytest --no-header -rA --tb=no -p no:cacheprovider tests",
    START,
    "============================= test session starts ==============================",
    `collected ${TESTS_PER_INSTANCE} items`,
    "",
    "tests/test_module_0.py ..........F.s.x                                    [ 30%]",
    "tests/test_module_1.py ...................................                [100%]",
    "",
    "=========================== short test summary info ============================",
  ];
  const count = { passed: 0, failed: 0, skipped: 0, xfailed: 0 };
  for (const test of tests) {
    const r = random();
    if (r < 0.88) {
      lines.push(`PASSED ${test}`);
      count.passed++;
    } else if (r < 0.94) {
      lines.push(`FAILED ${test} - AssertionError: assert 1 == 2`);
      count.failed++;
    } else if (r < 0.97) {
      lines.push(`SKIPPED [1] ${test.split("::")[0]}:12: needs a network`);
      count.skipped++;
    } else {
      lines.push(`XFAIL ${test} - known bug`);
      count.xfailed++;
    }
  }
  lines.push(
    `============== ${count.failed} failed, ${count.passed} passed, ${count.skipped} skipped, ${count.xfailed} xfailed in 1.23s ==============`,
    END,
    // pytest's own exit status: 1 when a test failed, else 0 (the grader checks they agree).
    `>>>>> Test Exit Code: ${count.failed > 0 ? 1 : 0}`,
  );
  const instance: Instance = {
    instance_id: id,
    repo: `owner/repo${index % 12}`,
    base_commit: "0".repeat(40),
    patch: "",
    test_patch: "",
    problem_statement: "",
    hints_text: "",
    created_at: "",
    version: "1.0",
    environment_setup_commit: "0".repeat(40),
    FAIL_TO_PASS: tests.slice(0, 2),
    PASS_TO_PASS: tests.slice(2),
    test_command: ["pytest"],
    log_parser: "pytest",
    language: "python",
    repo_path: "/nonexistent",
  };
  return { instance, log: lines.join("\n") };
}

function gradeAll(data: readonly Synthetic[]): { resolved: number; parsed: number } {
  const reports = new Map<string, InstanceReport>();
  let parsed = 0;
  for (const { instance, log } of data) {
    // The grader's own pure core, as `acilab grade` calls it on every log.
    const verdict = gradeLog(instance, log, { rules: "hardened" });
    parsed += verdict.testsInLog;
    reports.set(instance.instance_id, {
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: true,
      resolved: verdict.resolved,
      tests_status: verdict.tests_status,
      outcome: "graded",
      detail: "",
      rules: "hardened",
      apply_strategy: "git apply",
      rejected: verdict.rejected,
      test_exit_code: verdict.exitCode,
      canaries: [],
      touches_tests: false,
      impossible: false,
      duration_s: 0,
    });
  }
  const instances = data.map((d) => d.instance);
  const predictions: Prediction[] = instances.map((i) => ({
    instance_id: i.instance_id,
    model_name_or_path: "bench",
    model_patch: "diff",
  }));
  const summary = buildSummary({
    runId: "bench",
    instances,
    predictions,
    reports,
    warnings: [],
    interrupted: false,
  });
  return { resolved: summary.resolved_instances, parsed };
}

export async function benchGrading(options: { repeats?: number } = {}): Promise<GradingBenchRow[]> {
  const random = lcg(2294);
  const data = Array.from({ length: INSTANCES }, (_, i) => synthesize(i, random));
  const repeats = options.repeats ?? 5;
  gradeAll(data); // warm the JIT: the first pass measures compilation, not the work
  const samples: number[] = [];
  let result = { resolved: 0, parsed: 0 };
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    result = gradeAll(data);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const median = quantile(samples, 0.5);
  return [
    {
      name: `grading: parse + score + summary, ${INSTANCES} pytest logs (median of ${repeats})`,
      value: Math.round(median * 10) / 10,
      unit: "ms",
    },
    { name: "grading: target", value: TARGET_MS, unit: "ms" },
    { name: "grading: per instance", value: Math.round((median / INSTANCES) * 1000 * 10) / 10, unit: "µs" },
    // What the parser actually read (skipped tests are listed by location, not id, as pytest prints them).
    { name: "grading: test statuses parsed", value: result.parsed, unit: "tests" },
    { name: "grading: resolved in the synthetic set", value: result.resolved, unit: "instances" },
  ];
}
