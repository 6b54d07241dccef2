/** One problem a linter found, located in the content it was given. */
export interface LintIssue {
  /** 1-based line in the linted content. */
  line: number;
  /** 1-based column. */
  column: number;
  /** Linter code, e.g. "F821", "E999", "TS2304". */
  code: string;
  message: string;
  /** True for parse errors: they stop a checker from seeing names, so the guardrail treats them apart. */
  syntax: boolean;
}

export interface LintReport {
  /** Which checker ran, e.g. "flake8", "python ast (flake8 not found; syntax only)", "typescript"; "none" for other files. */
  linter: string;
  /**
   * The program that produced the report, when `linter` names a rule set that more than one can check:
   * flake8's codes come from the lint worker or, when it cannot run, from a flake8 process.
   */
  engine?: string;
  issues: LintIssue[];
  /**
   * False when undefined names were not (reliably) checked: the content does not parse, or only a
   * syntax check was available. A name error that appears once the syntax is fixed is then not "new".
   */
  namesChecked: boolean;
}

/** The languages the guardrail can check; anything else is written without a lint. */
export type LintLanguage = "python" | "typescript";
