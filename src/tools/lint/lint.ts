import { createHash } from "node:crypto";
import { basename, extname } from "node:path";
import { lintPython } from "./python.js";
import type { LintLanguage, LintReport } from "./types.js";
import { lintTypeScript } from "./typescript.js";

const LANGUAGES: Record<string, LintLanguage> = {
  ".py": "python",
  ".js": "typescript",
  ".mjs": "typescript",
  ".cjs": "typescript",
  ".jsx": "typescript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescript",
};

/** The guardrail's language for a path, or undefined when it has no linter for it. */
export function lintLanguageOf(path: string): LintLanguage | undefined {
  return LANGUAGES[extname(path).toLowerCase()];
}

/**
 * Reports kept by content: an edit's "before" is usually the previous edit's "after", so each edit
 * lints once instead of twice. 64 entries of a few issues each is negligible memory. Promises are kept,
 * not results, so that two lints of the same content at once (a no-op edit) also run the linter once.
 */
const REPORT_CACHE_SIZE = 64;
const cache = new Map<string, Promise<LintReport>>();

function remember(key: string, report: Promise<LintReport>): void {
  cache.delete(key);
  cache.set(key, report);
  while (cache.size > REPORT_CACHE_SIZE) {
    const oldest = cache.keys().next();
    if (oldest.done) break;
    cache.delete(oldest.value);
  }
}

/**
 * Lint `content` as the file at `path` would be linted (the path only picks the language and the name
 * in messages; nothing is read from it). Files of other languages get linter "none" and no issues.
 */
export async function lintFile(path: string, content: string): Promise<LintReport> {
  const language = lintLanguageOf(path);
  if (language === undefined) return { linter: "none", issues: [], namesChecked: true };
  const key = createHash("sha256")
    .update(`${basename(path)}\0${content}`)
    .digest("hex");
  const hit = cache.get(key);
  if (hit) {
    remember(key, hit);
    return hit;
  }
  const report = language === "python" ? lintPython(path, content) : lintTypeScript(path, content);
  remember(key, report);
  // A failed lint (timeout, no linter) is not an answer: the next call tries again.
  report.catch(() => {
    if (cache.get(key) === report) cache.delete(key);
  });
  return report;
}

/** Test hook: lint results depend on which linter is installed, so tests that swap it start clean. */
export function clearLintCache(): void {
  cache.clear();
}
