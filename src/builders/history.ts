import { CONVENTIONAL_TEST_PATHS, isSourcePath, type TestPaths } from "./paths.js";
import type { WorkRepo } from "./workdir.js";

export interface CommitChange {
  sha: string;
  date: string;
  subject: string;
  /** A merge on the first-parent line: a merged pull request, taken as one fix (`merge^1..merge`). */
  merge: boolean;
  /** Files the commit changed, with added + deleted lines (binary files count 0). */
  files: { path: string; lines: number }[];
}

/** A commit that changes tests and source: a fix, in the sense mirroring needs. */
export interface FixCommit extends CommitChange {
  sourceFiles: string[];
  testFiles: string[];
  sourceLines: number;
}

/**
 * The last `max` commits on HEAD's first-parent line, newest first, with the files each changed — one
 * `git log --numstat` call, so walking 700 commits costs one process. A merge counts with what it
 * brought in over its first parent, as SWE-bench takes a merged pull request: projects that merge
 * every change have almost nothing on the first-parent line but merges.
 */
export async function recentCommits(work: WorkRepo, max: number): Promise<CommitChange[]> {
  const out = await work.git([
    "log",
    "--first-parent",
    // With --first-parent, -m shows a merge's diff against its first parent only (git ≥ 1.8; the
    // newer spelling --diff-merges=first-parent needs git ≥ 2.31).
    "-m",
    "--no-renames",
    `--max-count=${max}`,
    "--numstat",
    "--format=%x00%H%x09%cI%x09%P%x09%s",
    "HEAD",
  ]);
  const commits: CommitChange[] = [];
  for (const chunk of out.split("\0").slice(1)) {
    const [header = "", ...rest] = chunk.split("\n");
    const [sha = "", date = "", parents = "", ...subject] = header.split("\t");
    if (parents.trim() === "") continue; // a root commit has nothing to reverse against
    const files = rest
      .map((l) => /^(\d+|-)\t(\d+|-)\t(.+)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ path: m[3] as string, lines: (Number(m[1]) || 0) + (Number(m[2]) || 0) }));
    commits.push({ sha, date, subject: subject.join("\t"), merge: parents.trim().includes(" "), files });
  }
  return commits;
}

/**
 * A merge that brings the main line into a side line ("Merge branch 'master' of …"): on the first-parent
 * line its first-parent diff is everyone else's work since the branch split, not one change.
 */
function mergesMainIn(commit: CommitChange): boolean {
  return (
    commit.merge &&
    /^Merge (?:remote-tracking )?branch '(?:origin\/)?(?:master|main|develop|trunk)'/.test(commit.subject)
  );
}

/** The commit as a fix (changes tests and source), or undefined for everything else. */
export function asFix(
  commit: CommitChange,
  tests: TestPaths = CONVENTIONAL_TEST_PATHS,
): FixCommit | undefined {
  if (mergesMainIn(commit)) return undefined;
  const sourceFiles = commit.files.filter((f) => isSourcePath(f.path, tests));
  const testFiles = commit.files.filter((f) => tests.isTestPath(f.path));
  if (sourceFiles.length === 0 || testFiles.length === 0) return undefined;
  return {
    ...commit,
    sourceFiles: sourceFiles.map((f) => f.path),
    testFiles: testFiles.map((f) => f.path),
    sourceLines: sourceFiles.reduce((n, f) => n + f.lines, 0),
  };
}
