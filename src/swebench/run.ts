import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { forEachLimited } from "../pool/index.js";
import {
  assertSafeName,
  finishInstanceDir,
  instanceDir,
  reusableReport,
  startInstanceDir,
  summaryPath,
  writeSummary,
} from "./layout.js";
import { buildSummary, isEmptyPatch } from "./summary.js";
import { touchesTests } from "./touches-tests.js";
import type {
  GradedInstance,
  GradeFn,
  GradeOptions,
  GradeOutcome,
  GradingRules,
  Instance,
  InstanceReport,
  Prediction,
  RunSummary,
} from "./types.js";

/** One instance finished (graded now, or its earlier report reused). */
export interface ProgressEvent {
  instance_id: string;
  outcome: GradeOutcome;
  resolved: boolean;
  /** From an earlier run's report.json, not graded now. */
  reused: boolean;
  detail: string;
  duration_s: number;
  /** Finished so far, including this one, out of `total` submitted predictions. */
  done: number;
  total: number;
  resolvedSoFar: number;
  errorsSoFar: number;
}

export interface GradeRunOptions {
  instances: readonly Instance[];
  /** Predictions for instances in `instances`; others are skipped with a warning. */
  predictions: readonly Prediction[];
  runId: string;
  outDir: string;
  grade: GradeFn;
  /** Instances graded at once (default 1: grading is CPU-bound and machines here have 2 cores). */
  workers?: number;
  /** Grade again even when a finished report for the same patch exists. */
  rerun?: boolean;
  /** Passed to every grade call (sandbox backend, test timeout). */
  gradeOptions?: Omit<GradeOptions, "signal">;
  /** Input warnings from loading, kept in the summary. */
  warnings?: readonly string[];
  /**
   * Rows that cannot run on this machine (repository missing, no recipe, malformed): each gets a
   * report with outcome environment_unavailable and the reason, under the run's model.
   */
  unavailable?: ReadonlyArray<{ instance_id: string; reason: string }>;
  onProgress?: (event: ProgressEvent) => void;
  /** Abort: no new instance starts, running ones get the signal, and their folders keep no report. */
  signal?: AbortSignal;
}

export interface GradeRunResult {
  summary: RunSummary;
  summaryPath: string;
  runDir: string;
  interrupted: boolean;
  reports: Map<string, InstanceReport>;
}

const EMPTY_BUCKET = () => ({ success: [], failure: [] });

/** A report for an instance the grader never saw through: empty patch, or a grader that threw. */
function syntheticReport(
  instance: Instance,
  prediction: Prediction,
  outcome: "empty_patch" | "infrastructure_error" | "environment_unavailable",
  detail: string,
  duration_s: number,
  rules: GradingRules,
): InstanceReport {
  return {
    patch_is_None: prediction.model_patch === null,
    patch_exists: !isEmptyPatch(prediction.model_patch),
    patch_successfully_applied: false,
    resolved: false,
    tests_status: {
      FAIL_TO_PASS: EMPTY_BUCKET(),
      PASS_TO_PASS: EMPTY_BUCKET(),
      FAIL_TO_FAIL: EMPTY_BUCKET(),
      PASS_TO_FAIL: EMPTY_BUCKET(),
    },
    outcome,
    detail,
    rules,
    apply_strategy: null,
    rejected: null,
    test_exit_code: null,
    canaries: [],
    touches_tests: touchesTests(prediction.model_patch).length > 0,
    impossible: instance.impossible ?? false,
    duration_s,
  };
}

/**
 * Grade every prediction's instance and write SWE-bench's run layout plus the summary. Finished
 * instances (report.json for the same patch) are reused unless `rerun`, so a stopped run resumes where
 * it stopped. A grader that throws makes that one instance an error; the rest go on.
 */
export async function gradeRun(options: GradeRunOptions): Promise<GradeRunResult> {
  const { instances, runId, outDir, grade, signal } = options;
  const rules = options.gradeOptions?.rules ?? "hardened";
  assertSafeName(runId, "run id");
  const byId = new Map(instances.map((i) => [i.instance_id, i]));
  const warnings = [...(options.warnings ?? [])];
  const predictions: Prediction[] = [];
  for (const p of options.predictions) {
    if (byId.has(p.instance_id)) predictions.push(p);
    else warnings.push(`prediction for unknown instance "${p.instance_id}": not graded`);
  }
  const models = new Set(predictions.map((p) => p.model_name_or_path));
  if (models.size > 1)
    warnings.push(
      `predictions name ${models.size} models (${[...models].join(", ")}); the summary is named after the first`,
    );
  const model = predictions[0]?.model_name_or_path ?? "none";
  const reports = new Map<string, InstanceReport>();
  let done = 0;
  let resolvedSoFar = 0;
  let errorsSoFar = 0;
  const finished = (prediction: Prediction, report: InstanceReport, reused: boolean) => {
    reports.set(prediction.instance_id, report);
    done++;
    if (report.outcome === "graded" && report.resolved) resolvedSoFar++;
    if (report.outcome === "infrastructure_error") errorsSoFar++;
    options.onProgress?.({
      instance_id: prediction.instance_id,
      outcome: report.outcome,
      resolved: report.outcome === "graded" && report.resolved,
      reused,
      detail: report.detail,
      duration_s: report.duration_s,
      done,
      total: predictions.length,
      resolvedSoFar,
      errorsSoFar,
    });
  };

  // Keep instance order (the instances file's), so logs and progress read the same run after run.
  const queue: Prediction[] = [];
  const predictionOf = new Map(predictions.map((p) => [p.instance_id, p]));
  for (const instance of instances) {
    const prediction = predictionOf.get(instance.instance_id);
    if (!prediction) continue;
    const dir = instanceDir(outDir, runId, prediction.model_name_or_path, instance.instance_id);
    const earlier = options.rerun
      ? undefined
      : reusableReport(dir, instance.instance_id, prediction.model_patch, rules);
    if (earlier) finished(prediction, earlier, true);
    else queue.push(prediction);
  }

  // Rows that cannot run here: their reports say why, and they count in the summary like the rest.
  const placeholders: Instance[] = [];
  for (const row of options.unavailable ?? []) {
    if (byId.has(row.instance_id)) continue;
    const instance = unavailableInstance(row.instance_id);
    const prediction: Prediction = {
      instance_id: row.instance_id,
      model_name_or_path: model,
      model_patch: null,
    };
    placeholders.push(instance);
    predictions.push(prediction);
    const dir = instanceDir(outDir, runId, model, row.instance_id);
    startInstanceDir(dir, "");
    const report = syntheticReport(instance, prediction, "environment_unavailable", row.reason, 0, rules);
    finishInstanceDir(dir, row.instance_id, { report });
    finished(prediction, report, false);
  }

  const gradeOne = async (prediction: Prediction): Promise<void> => {
    const instance = byId.get(prediction.instance_id) as Instance;
    const dir = instanceDir(outDir, runId, prediction.model_name_or_path, instance.instance_id);
    startInstanceDir(dir, prediction.model_patch ?? "");
    const started = performance.now();
    const seconds = () => Math.round((performance.now() - started) / 10) / 100;
    let graded: Partial<GradedInstance> & { report: InstanceReport };
    if (isEmptyPatch(prediction.model_patch)) {
      // SWE-bench counts an empty patch and never runs it.
      graded = {
        report: syntheticReport(
          instance,
          prediction,
          "empty_patch",
          prediction.model_patch === null ? "no patch (null): not run" : "empty patch: not run",
          0,
          rules,
        ),
      };
    } else {
      try {
        graded = await grade(instance, prediction, {
          ...options.gradeOptions,
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        if (signal?.aborted) return; // stopped by the user, not a harness failure: no report, resumable
        const message = err instanceof Error ? err.message : String(err);
        graded = {
          report: syntheticReport(
            instance,
            prediction,
            "infrastructure_error",
            `grader failed: ${message}`,
            seconds(),
            rules,
          ),
        };
      }
      // A run cut short by the abort may have half a log: keep no verdict, the next run regrades it.
      if (signal?.aborted) return;
    }
    finishInstanceDir(dir, instance.instance_id, graded);
    finished(prediction, graded.report, false);
  };

  await forEachLimited(queue, { workers: options.workers ?? 1, ...(signal ? { signal } : {}) }, gradeOne);

  const interrupted = signal?.aborted === true && done < predictions.length;
  const summary = buildSummary({
    runId,
    instances: [...instances, ...placeholders],
    predictions,
    reports,
    warnings,
    interrupted,
    rules,
  });
  const path = summaryPath(outDir, runId, model);
  mkdirSync(join(outDir, runId), { recursive: true });
  writeSummary(path, summary);
  return { summary, summaryPath: path, runDir: join(outDir, runId), interrupted, reports };
}

/** An instance the run knows only by id: a row that could not be loaded. */
function unavailableInstance(instance_id: string): Instance {
  return {
    instance_id,
    repo: "",
    base_commit: "",
    patch: "",
    test_patch: "",
    problem_statement: "",
    hints_text: "",
    created_at: "",
    version: "",
    environment_setup_commit: "",
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
    test_command: [],
    log_parser: "pytest",
    language: "python",
    repo_path: "",
  };
}
