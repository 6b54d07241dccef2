import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, posix } from "node:path";
import type { WorkRepo } from "./workdir.js";

/**
 * Data-driven tests: a test module that loops over a table (`cases`, a fixture file of rows) names its
 * tests at run time, so no test can be found in the source to hide, and a fix that only adds a row to
 * `test/fixtures/range-parse.js` changes no test module at all. SWE-bench keeps such fixes: the base has
 * the parent's version of the test and fixture files, and FAIL_TO_PASS comes from the runs. This file
 * holds the two parts that needs: which test modules load a changed fixture file, and hiding by file.
 */

/** A file's module name as code refers to it: `test/fixtures/range-parse.js` → `range-parse`. */
function stemOf(path: string): string {
  return posix.basename(path).replace(/\.(?:[cm]?[jt]sx?|py|json|ya?ml|toml|txt|csv)$/, "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whether `source` (a test module at `modulePath`) loads the support file `supportPath`: JavaScript's
 * `require('../fixtures/range-parse.js')` / `import … from './cases'`, Python's `from tests.data import
 * cases` / `import helpers`, or a data file named in a string (`open("cases.json")`).
 */
export function loadsFile(source: string, supportPath: string): boolean {
  const stem = stemOf(supportPath);
  if (stem === "" || stem === "index" || stem === "__init__" || stem === "conftest") return false;
  const s = escapeRegExp(stem);
  const base = escapeRegExp(posix.basename(supportPath));
  const patterns = [
    // a quoted path ending in the file, with or without its extension
    new RegExp(`['"\`](?:[^'"\`\\n]*/)?(?:${s}(?:\\.[cm]?[jt]sx?)?|${base})['"\`]`),
    // Python imports of the module by its dotted name
    new RegExp(
      `^\\s*(?:from\\s+[\\w.]*\\b${s}\\b\\s+import|import\\s+[\\w.]*\\b${s}\\b|from\\s+[\\w.]+\\s+import\\s+[^\\n]*\\b${s}\\b)`,
      "m",
    ),
  ];
  return patterns.some((p) => p.test(source));
}

/**
 * The test modules (of `modules`, present in the working tree) that load one of the changed support
 * files: a fix that only adds a row to a fixture file is tested by the modules that read it.
 */
export function modulesLoading(
  workDir: string,
  modules: readonly string[],
  support: readonly string[],
): string[] {
  if (support.length === 0) return [];
  const out: string[] = [];
  for (const module of modules) {
    const path = join(workDir, module);
    if (!existsSync(path)) continue;
    let source: string;
    try {
      source = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    if (support.some((f) => f !== module && loadsFile(source, f))) out.push(module);
  }
  return out;
}

/**
 * Hide a change's tests by file: put the test and fixture files it changed back as they were before
 * it. At the fix's own commit that is its parent's version of each (a file the fix added is removed);
 * on a later commit (HEAD) it is the fix's test change undone there, which must reverse-apply.
 * Returns why it could not, or undefined when done.
 */
export async function hideByFile(
  work: WorkRepo,
  fix: { sha: string },
  files: readonly string[],
  rev: string,
): Promise<string | undefined> {
  if (files.length === 0) return undefined;
  if (rev === fix.sha) {
    const before = new Set(await work.files(`${fix.sha}^`));
    for (const f of files) {
      if (before.has(f)) await work.git(["checkout", `${fix.sha}^`, "--", f]);
      else rmSync(join(work.dir, f), { force: true });
    }
    return undefined;
  }
  const change = await work.diff(`${fix.sha}^`, fix.sha, files);
  if (change.trim() === "") return undefined;
  return (await work.apply(change, true))
    ? undefined
    : `its test change (${files.join(", ")}) no longer reverse-applies at HEAD, so its tests cannot be hidden by file there`;
}
