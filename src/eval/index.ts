export { gradeSwebenchLog } from "../swebench/index.js";
export {
  type Canary,
  type CanaryCheck,
  checkCanaries,
  planCanaries,
} from "./canaries/index.js";
export { GRADE_TEST_TIMEOUT_MS, gradeInstance, gradeTask } from "./grade.js";
export {
  formatTestOutput,
  type GradedTests,
  gradeLog,
  type LogGrade,
  readTestOutput,
  type TestRun,
} from "./grade-log.js";
export { patchProblem } from "./patch-check.js";
export {
  causesInWords,
  type Readiness,
  type RepoReadiness,
  readinessOf,
  readinessTable,
  type UnavailableCause,
  unavailableCause,
} from "./readiness.js";
export { splitByBase, testFilesToReset } from "./restore.js";
export { guardTestCommand } from "./runner-guard.js";
export { type ApplyResult, applyCandidate } from "./steps.js";
export {
  checkTwins,
  planTwins,
  TWIN_LIMITS,
  type Twin,
  type TwinCheck,
  type TwinPlan,
  type TwinResult,
  twinParsers,
} from "./twins/index.js";
export { NOOP_PATCH, type Validation, validateInstance } from "./validate.js";
