export { type DirectiveStyle, testDirectives } from "./directives.js";
export {
  EVAL_SCRIPT_FILE,
  instanceDir,
  PATCH_FILE,
  REPORT_FILE,
  reusableReport,
  summaryPath,
  TEST_OUTPUT_FILE,
  writeGradedRun,
} from "./layout.js";
export { loadInstances, parseEnvironmentSpec, parseInstanceRow } from "./load-instances.js";
export { type LoadedPredictions, loadPredictions } from "./load-predictions.js";
export {
  completeRow,
  environmentYmlRequirements,
  includedFiles,
  needsRecipe,
  RECIPE_FIELDS,
  type RowFacts,
  recipeEnvironment,
  requirementLines,
} from "./published.js";
export { RECIPES_DIR, type Recipe, recipeFor, recipes } from "./recipes.js";
export { InputFileError, idOf, type Row, readRows } from "./rows.js";
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
  PinPolicy,
  Prediction,
  PythonEnvironmentSpec,
  RunSummary,
  TestBucket,
  TwinResult,
} from "./types.js";
export { GRADING_RULES, isNodeEnvironment, PIN_POLICIES } from "./types.js";
