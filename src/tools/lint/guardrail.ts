import { lintFile, lintLanguageOf } from "./lint.js";
import type { LintIssue, LintReport } from "./types.js";

export type GuardVerdict =
  | { accepted: true /** the linter that ran, undefined when none applies */; linter: string | undefined }
  | {
      accepted: false;
      linter: string /** errors in the proposed content that the original lacked */;
      added: LintIssue[];
    };

/** Decides whether a proposed file content may replace the current one. */
export interface EditGuard {
  /** `before` is null when the file does not exist yet. */
  review(path: string, before: string | null, after: string): Promise<GuardVerdict>;
}

/**
 * Codes compared as a set, not a multiset. E111 (indent not a multiple of four) fires on every line of
 * a two-space file, so counting would reject every edit that adds a line to such a file.
 */
const SET_COMPARED_CODES = new Set(["E111"]);

/** Line numbers inside messages ("… on line 4") move with any edit above them; they must not make an error "new". */
function keyOf(issue: LintIssue): string {
  return `${issue.code}\0${issue.message.replace(/\bline \d+/g, "line #")}`;
}

/**
 * The issues of `after` that `before` did not have, compared as multisets of (code, message) so that
 * errors merely shifted by the edit are not new. When `before` could not be checked for names (it did
 * not parse), name errors in `after` are not counted: fixing a syntax error must not be blocked by
 * the undefined names it reveals.
 */
export function addedIssues(before: LintReport, after: LintReport): LintIssue[] {
  const counts = new Map<string, number>();
  for (const issue of before.issues) counts.set(keyOf(issue), (counts.get(keyOf(issue)) ?? 0) + 1);
  const added: LintIssue[] = [];
  for (const issue of after.issues) {
    if (!issue.syntax && !before.namesChecked) continue;
    const key = keyOf(issue);
    const left = counts.get(key) ?? 0;
    if (left > 0) {
      if (!SET_COMPARED_CODES.has(issue.code)) counts.set(key, left - 1);
      continue;
    }
    added.push(issue);
  }
  return added;
}

const EMPTY: LintReport = { linter: "none", issues: [], namesChecked: true };

/** The guardrail: lint before and after, reject the edit if it adds an error. */
export function createLintGuard(
  lint: (path: string, content: string) => Promise<LintReport> = lintFile,
): EditGuard {
  return {
    async review(path, before, after) {
      if (lintLanguageOf(path) === undefined) return { accepted: true, linter: undefined };
      const [old, proposed] = await Promise.all([
        before === null ? EMPTY : lint(path, before),
        lint(path, after),
      ]);
      const added = addedIssues(old, proposed);
      if (added.length === 0) return { accepted: true, linter: proposed.linter };
      return { accepted: false, linter: proposed.linter, added };
    },
  };
}

/** A guard that accepts everything: the "no lint" arm of an experiment. */
export const noLintGuard: EditGuard = {
  review: async () => ({ accepted: true, linter: undefined }),
};
