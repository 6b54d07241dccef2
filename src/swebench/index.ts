export {
  EVAL_SCRIPT_FILE,
  instanceDir,
  PATCH_FILE,
  REPORT_FILE,
  summaryPath,
  TEST_OUTPUT_FILE,
} from "./layout.js";
export { loadInstances, parseEnvironmentSpec } from "./load-instances.js";
export { type LoadedPredictions, loadPredictions } from "./load-predictions.js";
export { InputFileError } from "./rows.js";
export { type GradeRunOptions, type GradeRunResult, gradeRun, type ProgressEvent } from "./run.js";
export { isResolved, scoreStatuses } from "./score.js";
export { buildSummary, isEmptyPatch } from "./summary.js";
export {
  END_TEST_OUTPUT,
  gradeSwebenchLog,
  START_TEST_OUTPUT,
  type SwebenchVerdict,
  TEST_EXIT_CODE,
} from "./swebench-rules.js";
export { isTestPath, patchPaths, splitDiff, touchesTests } from "./touches-tests.js";
export type {
  CanaryResult,
  EnvironmentSpec,
  GradedInstance,
  GradeFn,
  GradeOptions,
  GradeOutcome,
  GradingRules,
  Instance,
  InstanceReport,
  NodeEnvironmentSpec,
  NpmSources,
  PackageSources,
  Prediction,
  PythonEnvironmentSpec,
  RunSummary,
  TestBucket,
  TwinResult,
} from "./types.js";
export { GRADING_RULES, isNodeEnvironment } from "./types.js";
