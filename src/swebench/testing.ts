import type { GradedInstance, GradeFn, Instance, InstanceReport, Prediction } from "./types.js";

/** A SWE-bench row extended with acilab's three fields, as a test fixture. */
export function instanceRow(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    repo: "acilab/demo",
    instance_id: id,
    base_commit: "a".repeat(40),
    patch: `diff --git a/src/${id}.py b/src/${id}.py\n`,
    test_patch: "diff --git a/tests/test_x.py b/tests/test_x.py\n",
    problem_statement: `fix ${id}`,
    hints_text: "",
    created_at: "2024-01-01T00:00:00Z",
    version: "1.0",
    environment_setup_commit: "b".repeat(40),
    FAIL_TO_PASS: JSON.stringify([`tests/test_x.py::test_${id}`]),
    PASS_TO_PASS: JSON.stringify(["tests/test_x.py::test_old"]),
    test_command: ["python", "-m", "pytest", "-rA", "tests"],
    log_parser: "pytest",
    repo_path: "repo",
    ...extra,
  };
}

export function makeInstance(id: string, extra: Partial<Instance> = {}): Instance {
  return {
    instance_id: id,
    repo: "acilab/demo",
    base_commit: "a".repeat(40),
    patch: `gold-${id}`,
    test_patch: "",
    problem_statement: "",
    hints_text: "",
    created_at: "",
    version: "1.0",
    environment_setup_commit: "a".repeat(40),
    FAIL_TO_PASS: [`tests/test_x.py::test_${id}`],
    PASS_TO_PASS: [],
    test_command: ["pytest"],
    log_parser: "pytest",
    language: "python",
    repo_path: "/nonexistent",
    ...extra,
  };
}

export function prediction(id: string, patch: string | null, extra: Partial<Prediction> = {}): Prediction {
  return { instance_id: id, model_name_or_path: "org/model-x", model_patch: patch, ...extra };
}

/** A graded report with the given outcome; tests override what they assert on. */
export function fakeReport(
  outcome: InstanceReport["outcome"],
  resolved: boolean,
  extra: Partial<InstanceReport> = {},
) {
  const report: InstanceReport = {
    patch_is_None: false,
    patch_exists: true,
    patch_successfully_applied: outcome === "graded" || outcome === "timeout",
    resolved,
    tests_status: {
      FAIL_TO_PASS: { success: resolved ? ["t"] : [], failure: resolved ? [] : ["t"] },
      PASS_TO_PASS: { success: [], failure: [] },
      FAIL_TO_FAIL: { success: [], failure: [] },
      PASS_TO_FAIL: { success: [], failure: [] },
    },
    outcome,
    detail: resolved ? "resolved" : `not resolved (${outcome})`,
    rules: "hardened",
    apply_strategy: "git apply",
    rejected: null,
    test_exit_code: resolved ? 0 : 1,
    canaries: [],
    touches_tests: false,
    impossible: false,
    duration_s: 0.01,
    ...extra,
  };
  return report;
}

/**
 * A grader whose verdict is written in the patch itself: "resolve", "fail", "timeout", "throw",
 * "hang" (waits for the abort signal), anything else = unresolved. Records the calls it got.
 */
export function scriptedGrader(): GradeFn & { calls: string[]; maxConcurrent: number } {
  let running = 0;
  const fn = (async (instance, pred, options): Promise<GradedInstance> => {
    fn.calls.push(instance.instance_id);
    running++;
    fn.maxConcurrent = Math.max(fn.maxConcurrent, running);
    try {
      const patch = pred.model_patch ?? "";
      const wait = /wait:(\d+)/.exec(patch);
      if (wait) await new Promise((r) => setTimeout(r, Number(wait[1])));
      if (patch.includes("hang"))
        await new Promise((_, reject) => {
          const signal = options.signal;
          if (!signal) return;
          if (signal.aborted) reject(new Error("aborted"));
          signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
        });
      if (patch.includes("throw")) throw new Error("sandbox failed to start: bwrap missing");
      const outcome = patch.includes("timeout") ? "timeout" : "graded";
      const report = fakeReport(outcome, patch.includes("resolve"), {
        touches_tests: patch.includes("tests/"),
        impossible: instance.impossible ?? false,
      });
      return {
        report,
        testOutput: `PASSED ${instance.FAIL_TO_PASS[0]}\n`,
        evalScript: "#!/bin/bash\npytest\n",
      };
    } finally {
      running--;
    }
  }) as GradeFn & { calls: string[]; maxConcurrent: number };
  fn.calls = [];
  fn.maxConcurrent = 0;
  return fn;
}
