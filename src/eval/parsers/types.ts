/** SWE-bench's test statuses. */
export type TestStatus = "PASSED" | "FAILED" | "SKIPPED" | "ERROR" | "XFAIL";

/** Test id → status, in the order the log reported them. */
export type TestStatusMap = Map<string, TestStatus>;

export type LogParserName = "pytest" | "node-tap";

export const ANSI_ESCAPE = /\u001b\[[0-9;]*[A-Za-z]/g;
