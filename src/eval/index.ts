export {
  type Canary,
  type CanaryCheck,
  type CanaryResult,
  checkCanaries,
  planCanaries,
} from "./canaries/index.js";
export { GRADE_TEST_TIMEOUT_MS, gradeInstance, gradeTask } from "./grade.js";
export {
  formatTestOutput,
  GRADING_RULES,
  type GradedTests,
  gradeLog,
  type LogGrade,
  readTestOutput,
  type TestRun,
} from "./grade-log.js";
export {
  LOG_PARSER_NAMES,
  LOG_PARSERS,
  type LogParserName,
  lookupStatus,
  parseNodeTap,
  parsePytest,
  suiteRan,
  type TestStatus,
  type TestStatusMap,
} from "./parsers/index.js";
export { patchProblem } from "./patch-check.js";
export { splitByBase, testFilesToReset } from "./restore.js";
export { guardTestCommand } from "./runner-guard.js";
export { type ApplyResult, applyCandidate } from "./steps.js";
export { gradeSwebenchLog } from "./swebench-rules.js";
export { NOOP_PATCH, type Validation, validateInstance } from "./validate.js";
