export { type ApplyResult, applyPatch } from "./apply-patch.js";
export {
  bucket,
  GRADE_TEST_TIMEOUT_MS,
  type GradeReport,
  gradePatch,
  rejectLog,
  type TestBucket,
} from "./grade.js";
export {
  LOG_PARSERS,
  type LogParserName,
  parseNodeTap,
  parsePytest,
  type TestStatus,
  type TestStatusMap,
} from "./parsers/index.js";
