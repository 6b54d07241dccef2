import type { GradedInstance, GradeOptions, Instance, InstanceReport } from "../swebench/index.js";
import { gradeInstance } from "./grade.js";

/** A patch that changes nothing the tests look at: the base as it is, but run (an empty patch is not). */
export const NOOP_PATCH =
  "diff --git a/.acilab-noop b/.acilab-noop\nnew file mode 100644\n--- /dev/null\n+++ b/.acilab-noop\n@@ -0,0 +1 @@\n+unchanged\n";

export interface Validation {
  instance_id: string;
  ok: boolean;
  /** Gold resolved in every run and the base resolved in none, but the runs disagreed test by test. */
  flaky: boolean;
  /** What is wrong, one line each, phrased for the task's author. */
  problems: string[];
  gold: InstanceReport[];
  base: InstanceReport;
  /** The runs themselves (logs and eval scripts), for keeping: the gold runs, then the base's. */
  runs: { gold: ValidationRun[]; base: ValidationRun };
}

/** A run graded now, or one an earlier, interrupted validation finished (already kept; not rewritten). */
export type ValidationRun = GradedInstance | { report: InstanceReport; reused: true };

export interface ValidateOptions extends GradeOptions {
  /** Gold runs that must agree test by test (default 2). */
  runs?: number;
  /**
   * The report of this patch's run number `run` (0-based; the base is run 0) that an earlier
   * validation finished, if it is worth keeping (`reusableReport`): a resumed validation grades only
   * what it had not finished.
   */
  earlier?: (model: "gold" | "base", run: number, patch: string) => InstanceReport | undefined;
}

function statusKey(r: InstanceReport): string {
  const t = r.tests_status;
  return JSON.stringify([t.FAIL_TO_PASS, t.PASS_TO_PASS, r.outcome]);
}

/**
 * Is this instance a fair test? The gold patch resolves it (for an impossible task: does not — its
 * hidden tests contradict the issue, so even the honest fix fails them), the untouched base fails
 * every FAIL_TO_PASS test and passes every PASS_TO_PASS one, and `runs` gold runs agree test by test
 * (a task whose verdict changes between runs is flaky, and excluded from the suite).
 */
export async function validateInstance(
  instance: Instance,
  options: ValidateOptions = {},
): Promise<Validation> {
  const runs = Math.max(1, options.runs ?? 2);
  const { earlier, runs: _, ...grading } = options;
  const run = async (model: "gold" | "base", i: number, patch: string): Promise<ValidationRun> => {
    const done = earlier?.(model, i, patch);
    return done
      ? { report: done, reused: true }
      : await gradeInstance(instance, { model_patch: patch }, grading);
  };
  const goldRuns: ValidationRun[] = [];
  for (let i = 0; i < runs; i++) goldRuns.push(await run("gold", i, instance.patch));
  const baseRun = await run("base", 0, NOOP_PATCH);
  const gold = goldRuns.map((r) => r.report);
  const base = baseRun.report;
  const problems: string[] = [];
  const impossible = instance.impossible === true;
  for (const [i, g] of gold.entries()) {
    const run = runs > 1 ? ` (run ${i + 1})` : "";
    if (g.outcome !== "graded") problems.push(`gold patch${run}: ${g.outcome} — ${g.detail}`);
    else if (!impossible && !g.resolved) problems.push(`gold patch does not resolve${run}: ${g.detail}`);
    else if (impossible && g.resolved)
      problems.push(
        `gold patch resolves an impossible task${run}: its hidden tests must contradict the issue`,
      );
  }
  if (base.outcome !== "graded") problems.push(`base: ${base.outcome} — ${base.detail}`);
  else {
    const passing = base.tests_status.FAIL_TO_PASS.success;
    if (passing.length > 0)
      problems.push(`FAIL_TO_PASS tests already pass at the base: ${passing.join(", ")}`);
    const broken = base.tests_status.PASS_TO_PASS.failure;
    if (broken.length > 0) problems.push(`PASS_TO_PASS tests fail at the base: ${broken.join(", ")}`);
    if (base.rejected) problems.push(`the base's test log is not trusted: ${base.rejected}`);
  }
  const flaky = new Set(gold.map(statusKey)).size > 1;
  if (flaky) problems.push(`the gold runs disagree test by test: flaky, excluded`);
  return {
    instance_id: instance.instance_id,
    ok: problems.length === 0,
    flaky,
    problems,
    gold,
    base,
    runs: { gold: goldRuns, base: baseRun },
  };
}
