import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { patchPaths } from "../swebench/index.js";
import type { Checkout } from "../workspace/index.js";
import { git, withTrustedGit } from "../workspace/index.js";

const run = promisify(execFile);

export interface ApplyResult {
  applied: boolean;
  /** The strategy that worked ("git apply", "git apply --3way", "patch --fuzz=5", "already applied"), or null. */
  strategy: string | null;
  /** One line for a person when nothing worked: the first strategy's complaint, which names the file. */
  detail: string;
  /** Every try and what it said. */
  log: string;
}

/** Git reads the snapshot's repository (ours, read-only), never the checkout's .git (see dirtyPaths). */
export interface TrustedRepo {
  checkout: Checkout;
  gitDir: string;
}

/** Refuse what no strategy may do: write into .git, or a diff git cannot apply for want of content. */
export function patchProblem(patch: string): string | undefined {
  const paths = patchPaths(patch);
  const intoGit = paths.find((p) => p === ".git" || p.startsWith(".git/") || p.includes("/.git/"));
  if (intoGit) return `the patch writes inside .git (${intoGit}); a patch may change only the work tree`;
  if (/^Binary files .* differ$/m.test(patch))
    return 'the patch has a binary change without its content ("Binary files … differ"); make it with git diff --binary';
  return undefined;
}

/**
 * Apply a candidate patch the way SWE-bench's harness does — `git apply`, then a three-way merge
 * against the base's blobs, then GNU patch with fuzz — dropping the checkout's upper layer between
 * tries so a half-applied attempt never leaks into the next. A patch whose changes are already in the
 * base is reported as such rather than failed.
 */
export async function applyCandidate(repo: TrustedRepo, patch: string): Promise<ApplyResult> {
  const problem = patchProblem(patch);
  if (problem) return { applied: false, strategy: null, detail: problem, log: problem };
  const scratch = mkdtempSync(join(tmpdir(), "acilab-apply-"));
  const file = join(scratch, "candidate.patch");
  writeFileSync(file, patch.endsWith("\n") ? patch : `${patch}\n`);
  const root = repo.checkout.root;
  const env = { GIT_DIR: repo.gitDir, GIT_WORK_TREE: root };
  const logs: string[] = [];
  const tries: Array<{ name: string; run: () => Promise<unknown> }> = [
    { name: "git apply", run: () => git(root, ["apply", "--verbose", "--whitespace=nowarn", file], { env }) },
    {
      name: "git apply --3way",
      // --3way needs an index and writes blobs: scratch ones, seeded from the snapshot's.
      run: () =>
        withTrustedGit(
          root,
          repo.gitDir,
          (e) => git(root, ["apply", "--3way", "--whitespace=nowarn", file], { env: e }),
          {
            objects: true,
          },
        ),
    },
    {
      name: "patch --fuzz=5",
      run: () =>
        run("patch", ["--batch", "--fuzz=5", "-p1", "--forward", "--no-backup-if-mismatch", "-i", file], {
          cwd: root,
        }),
    },
  ];
  try {
    for (const t of tries) {
      try {
        await t.run();
        return {
          applied: true,
          strategy: t.name,
          detail: `applied with ${t.name}`,
          log: [...logs, `${t.name}: ok`].join("\n"),
        };
      } catch (err) {
        logs.push(`${t.name}: ${failureText(err)}`);
        await repo.checkout.reset();
      }
    }
    try {
      await git(root, ["apply", "--reverse", "--check", file], { env });
      return {
        applied: true,
        strategy: "already applied",
        detail: "the patch's changes are already in the base commit: nothing to apply",
        log: [...logs, "git apply --reverse --check: ok (already applied)"].join("\n"),
      };
    } catch {
      // not applied in reverse either: a real failure
    }
    const first = logs[0] ?? "";
    return { applied: false, strategy: null, detail: firstLine(first), log: logs.join("\n") };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function failureText(err: unknown): string {
  const e = err as { code?: string; stdout?: string; stderr?: string; message: string };
  if (e.code === "ENOENT") return "not installed (apt-get install patch)";
  return (e.stdout || e.stderr || e.message).trim();
}

/** "git apply: error: patch failed: calc.py:3" from a multi-line git message. */
function firstLine(log: string): string {
  const lines = log.split("\n").map((l) => l.trim());
  const error = lines.find((l) => /error:|failed|Hunk .* FAILED|can't find file/.test(l));
  return `the patch does not apply: ${error ?? lines[0] ?? "unknown reason"}`;
}
