import { cargoTestSuiteRan, parseCargoTest } from "./cargo-test.js";
import { djangoSuiteRan, parseDjango } from "./django.js";
import { goTestJsonSuiteRan, parseGoTestJson } from "./go-test-json.js";
import { jestJsonSuiteRan, parseJestJson } from "./jest-json.js";
import { mochaJsonSuiteRan, parseMochaJson } from "./mocha-json.js";
import { nodeSpecSuiteRan, parseNodeSpec } from "./node-spec.js";
import { nodeTapSuiteRan, parseNodeTap } from "./node-tap.js";
import { parsePytest, pytestSuiteRan } from "./pytest.js";
import { parseMatplotlib, parsePytestOptions, parsePytestV2, parseSeaborn } from "./pytest-variants.js";
import { parseSympy, sympySuiteRan } from "./sympy.js";
import type { LogParserName, SuiteRan, TestStatusMap } from "./types.js";

export { parseCargoTest } from "./cargo-test.js";
export { parseDjango } from "./django.js";
export { parseGoTestJson } from "./go-test-json.js";
export { findJestReports, parseJestJson } from "./jest-json.js";
export { findJsonReports } from "./json-report.js";
export { lookupStatus } from "./lookup.js";
export { parseMochaJson } from "./mocha-json.js";
export { parseNodeSpec } from "./node-spec.js";
export { parseNodeTap } from "./node-tap.js";
export { parsePytest } from "./pytest.js";
export { optionId } from "./pytest-variants.js";
export {
  isPassing,
  LOG_PARSER_NAMES,
  type LogParserName,
  type SuiteRan,
  type TestStatus,
  type TestStatusMap,
} from "./types.js";

/** Log → per-test statuses, one parser per runner output format. */
export const LOG_PARSERS: Record<LogParserName, (log: string) => TestStatusMap> = {
  pytest: parsePytest,
  "node-tap": parseNodeTap,
  "node-spec": parseNodeSpec,
  "jest-json": parseJestJson,
  "mocha-json": parseMochaJson,
  "go-test-json": parseGoTestJson,
  "cargo-test": parseCargoTest,
  sympy: parseSympy,
  django: parseDjango,
  "pytest-options": parsePytestOptions,
  "pytest-v2": parsePytestV2,
  matplotlib: parseMatplotlib,
  seaborn: parseSeaborn,
};

const SUITE_RAN: Record<LogParserName, (log: string) => SuiteRan> = {
  pytest: pytestSuiteRan,
  "node-tap": nodeTapSuiteRan,
  "node-spec": nodeSpecSuiteRan,
  "jest-json": jestJsonSuiteRan,
  "mocha-json": mochaJsonSuiteRan,
  "go-test-json": goTestJsonSuiteRan,
  "cargo-test": cargoTestSuiteRan,
  sympy: sympySuiteRan,
  django: djangoSuiteRan,
  "pytest-options": pytestSuiteRan,
  "pytest-v2": pytestSuiteRan,
  matplotlib: pytestSuiteRan,
  seaborn: pytestSuiteRan,
};

/**
 * A positive sign that the suite ran to its end: the runner's own closing summary (pytest's
 * `=== N passed in Xs ===`, TAP's `# tests N`, spec's `ℹ tests N`, the JSON report's numTotalTests,
 * go's package-level pass/fail, cargo's `test result:` for every binary). Without it the log proves
 * nothing — a crash, a timeout, or a conftest that printed PASSED lines and exited — and the grader
 * should reject it. `why` names the line found, or what was missing.
 */
export function suiteRan(parser: LogParserName, log: string): SuiteRan {
  return SUITE_RAN[parser](log);
}
