export { addedIssues, createLintGuard, type EditGuard, type GuardVerdict, noLintGuard } from "./guardrail.js";
export { clearLintCache, lintFile, lintLanguageOf } from "./lint.js";
export { FLAKE8_SELECT, PYTHON_LINT_TIMEOUT_MS } from "./python.js";
export type { LintIssue, LintLanguage, LintReport } from "./types.js";
