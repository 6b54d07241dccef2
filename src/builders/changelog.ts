import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { WorkRepo } from "./workdir.js";

/**
 * A file that documents changes rather than being code or tests: a changelog (`CHANGELOG.md`,
 * `HISTORY.rst`, `NEWS`, `docs/versions.rst`), the README, anything under `docs/`. A fix usually adds
 * a line there ("Fixed: `last()` on an empty iterator"), and a base that keeps it describes the fix.
 */
export function isDocumentation(path: string): boolean {
  const base = posix.basename(path);
  if (/^(docs?|changelog\.d|changes)\//i.test(path)) return true;
  if (/^(CHANGE(S|LOG)|HISTORY|NEWS|RELEASE(S|[-_]NOTES)?|README|WHATSNEW)(\.\w+)?$/i.test(base)) return true;
  return /\.(md|rst|txt|adoc)$/i.test(base) && !/requirements/i.test(base);
}

/**
 * Take the documentation the fix changed back out of the base: at the fix's own commit, its parent's
 * version of each such file; on a later commit (HEAD), the fix's change to it undone where it still
 * reverse-applies, else the lines it added removed one by one (a line later edited stays). Returns the
 * files touched.
 */
export async function dropFixDocumentation(
  work: WorkRepo,
  fix: { sha: string; files: { path: string }[]; testFiles: string[]; sourceFiles: string[] },
  rev: string,
): Promise<string[]> {
  // Test data (`tests/cases.txt`) is the tests' business: hidden with them, or not at all.
  const code = new Set([...fix.testFiles, ...fix.sourceFiles]);
  const docs = fix.files.map((f) => f.path).filter((p) => !code.has(p) && isDocumentation(p));
  const present = new Set(await work.files(rev));
  const touched: string[] = [];
  for (const path of docs.filter((p) => present.has(p))) {
    if (rev === fix.sha) {
      // Its parent's version; a document the fix added (its release notes) is not there at all.
      const before = await work.git(["show", `${fix.sha}^:${path}`]).catch(() => undefined);
      if (before === undefined) rmSync(join(work.dir, path), { force: true });
      else writeFileSync(join(work.dir, path), before);
      touched.push(path);
      continue;
    }
    const change = await work.diff(`${fix.sha}^`, fix.sha, [path]);
    if (change.trim() === "") continue;
    if (await work.apply(change, true)) {
      touched.push(path);
      continue;
    }
    if (removeAddedLines(join(work.dir, path), change)) touched.push(path);
  }
  return touched;
}

/** Remove, once each, the lines a diff added that still stand as they were; true when any was. */
function removeAddedLines(file: string, diff: string): boolean {
  if (!existsSync(file)) return false;
  const added = diff
    .split("\n")
    .filter((l) => l.startsWith("+") && !l.startsWith("+++"))
    .map((l) => l.slice(1))
    // Blank lines and rules (`----`, `===`) are layout, shared by every entry.
    .filter((l) => /\w{3}/.test(l));
  const lines = readFileSync(file, "utf8").split("\n");
  let removed = false;
  for (const line of added) {
    const at = lines.indexOf(line);
    if (at < 0) continue;
    lines.splice(at, 1);
    removed = true;
  }
  if (removed) writeFileSync(file, lines.join("\n"));
  return removed;
}
