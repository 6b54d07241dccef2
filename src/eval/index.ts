export { type ApplyResult, applyCandidate, patchProblem, type TrustedRepo } from "./apply-patch.js";
export { GRADE_TEST_TIMEOUT_MS, gradeInstance, gradeTask, rejectLog } from "./grade.js";
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
export { restoreTestFiles } from "./restore.js";
export { NOOP_PATCH, type Validation, validateInstance } from "./validate.js";
