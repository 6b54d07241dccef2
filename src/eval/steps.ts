/**
 * The grading steps that touch the candidate's tree, each run inside the grading sandbox as the
 * unprivileged sandbox user: applying the candidate patch, restoring the graded test files, applying
 * the test patch and reading the graded files back (PREPARE_BODY) — one-start.ts puts them and the
 * test run into one sandbox start; the apply strategies after a refusal by `git apply` run here one
 * by one. No host process writes into, reads through or runs a tool (git, patch) on a tree the
 * candidate shaped; the checkout's `.git` is mounted read-only inside (see openTaskSandbox), so no
 * strategy can write there. Every script is fixed text; what varies arrives as arguments, on stdin or
 * on the exec channel, never spliced into it.
 */
import type { ExecResult, Sandbox } from "../sandbox/index.js";

/** Git inside the sandbox: no hooks, no fsmonitor, no config but ours. */
export const GIT =
  'git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c safe.directory="*" -c core.quotepath=off';
export const GIT_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" };
/** Patching and copying take seconds at most; a step that takes longer is stuck. */
const STEP_TIMEOUT_MS = 120_000;
/** Test files read back for the canaries (a few hundred KiB at most in practice). */
export const READ_LIMIT = 8_000_000;
/** Exit status of a step script that failed in a way the grader reports (not a program's status). */
export const STEP_FAILED = 125;

/** One step as eval.sh records it: the script, its arguments, and what it was given on stdin. */
export interface RecordedStep {
  name: string;
  script: string;
  args: string[];
  stdin: string | null;
  /** What the harness sent on fd 4 (the canaries to plant), when the step had a channel. */
  fd4?: string;
}

export interface StepRunner {
  sandbox: Sandbox;
  /** Everything run so far, in order, for eval.sh. */
  steps: RecordedStep[];
}

async function step(
  runner: StepRunner,
  name: string,
  script: string,
  args: string[],
  options: { stdin?: string; timeoutMs?: number; outputLimit?: number; env?: Record<string, string> } = {},
): Promise<ExecResult> {
  runner.steps.push({ name, script, args, stdin: options.stdin ?? null });
  return runner.sandbox.exec({
    argv: ["bash", "-c", script, `acilab-${name}`, ...args],
    env: { ...GIT_ENV, ...options.env },
    timeoutMs: options.timeoutMs ?? STEP_TIMEOUT_MS,
    outputLimit: options.outputLimit ?? 200_000,
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
  });
}

/** The apply strategies, in SWE-bench's order of preference; each reads the patch on stdin. */
const STRATEGIES: Array<{ name: string; writesOnFailure: boolean; script: string }> = [
  {
    name: "git apply",
    writesOnFailure: false, // git apply is atomic: all hunks or nothing
    script: `set -u\ncat > /tmp/candidate.patch\n${GIT} apply --verbose --whitespace=nowarn /tmp/candidate.patch`,
  },
  {
    name: "git apply --3way",
    writesOnFailure: true,
    // --3way needs an index and writes blobs: scratch ones in the sandbox's /tmp, over the base's.
    script: `set -u\ncat > /tmp/candidate.patch\ncp .git/index /tmp/index 2>/dev/null || true\nmkdir -p /tmp/objects\nGIT_INDEX_FILE=/tmp/index GIT_OBJECT_DIRECTORY=/tmp/objects GIT_ALTERNATE_OBJECT_DIRECTORIES="$PWD/.git/objects" ${GIT} apply --3way --whitespace=nowarn /tmp/candidate.patch`,
  },
  {
    name: "patch --fuzz=5",
    writesOnFailure: true,
    script:
      "set -u\ncat > /tmp/candidate.patch\npatch --batch --fuzz=5 -p1 --forward --no-backup-if-mismatch -i /tmp/candidate.patch",
  },
];
const ALREADY_APPLIED = `set -u\ncat > /tmp/candidate.patch\n${GIT} apply --reverse --check /tmp/candidate.patch`;

export interface ApplyResult {
  applied: boolean;
  /** The strategy that worked ("git apply", "git apply --3way", "patch --fuzz=5", "already applied"), or null. */
  strategy: string | null;
  /** One line for a person when nothing worked: the first strategy's complaint, which names the file. */
  detail: string;
  /** Every try and what it said. */
  log: string;
}

/**
 * Apply the candidate the way SWE-bench's harness does — `git apply`, a three-way merge against the
 * base's blobs, GNU patch with fuzz — in the sandbox. `reset` puts the tree back to its state before
 * the first try (the checkout's upper layer dropped and the task's setup run again) after a strategy
 * that can leave half a patch behind.
 */
export async function applyCandidate(
  runner: StepRunner,
  patch: string,
  reset: () => Promise<void>,
  /** Set when `git apply` already refused the patch (its message): the other strategies come next. */
  refusedByGitApply?: string,
): Promise<ApplyResult> {
  const input = patch.endsWith("\n") ? patch : `${patch}\n`;
  const logs: string[] = refusedByGitApply === undefined ? [] : [refusedByGitApply];
  for (const s of refusedByGitApply === undefined ? STRATEGIES : STRATEGIES.slice(1)) {
    const r = await step(runner, `apply (${s.name})`, s.script, [], { stdin: input });
    if (r.exitCode === 0)
      return {
        applied: true,
        strategy: s.name,
        detail: `applied with ${s.name}`,
        log: [...logs, `${s.name}: ok`].join("\n"),
      };
    logs.push(`${s.name}: ${r.output.trim() || `exit ${r.exitCode ?? r.signal}`}`);
    if (s.writesOnFailure) await reset();
  }
  const back = await step(runner, "apply (already applied?)", ALREADY_APPLIED, [], { stdin: input });
  if (back.exitCode === 0)
    return {
      applied: true,
      strategy: "already applied",
      detail: "the patch's changes are already in the base commit: nothing to apply",
      log: [...logs, "git apply --reverse --check: ok (already applied)"].join("\n"),
    };
  return { applied: false, strategy: null, detail: firstComplaint(logs[0] ?? ""), log: logs.join("\n") };
}

/** "the patch does not apply: error: patch failed: calc.py:3" from a multi-line git message. */
function firstComplaint(log: string): string {
  const lines = log.split("\n").map((l) => l.trim());
  // The line that names the file first ("patch failed: calc.py:3", "calc.py: does not exist in index").
  const error =
    lines.find((l) => /^error: (?!while searching)/.test(l)) ??
    lines.find((l) => /failed|Hunk .* FAILED|can't find file/.test(l));
  return `the patch does not apply: ${error ?? lines[0] ?? "unknown reason"}`;
}

/**
 * Restore, apply the test patch, read back, with the test patch in /tmp/test.patch: (1) remove
 * whatever the candidate left at each of `clear` and the first non-directory on the way to it (a
 * symlink planted where a test folder was); (2) check `restore` out of `base` — the files SWE-bench's
 * eval script resets; (3) apply the test patch; (4) print each of `read` that is a regular file,
 * framed by NULs. Arguments: base, clear…, --, restore…, --, read….
 */
export const PREPARE_BODY = `base=$1; shift
while [ "$1" != "--" ]; do
  IFS=/ read -r -a parts <<< "$1"
  cur=.
  for part in "\${parts[@]}"; do
    cur="$cur/$part"
    if [ -L "$cur" ] || { [ -e "$cur" ] && [ ! -d "$cur" ]; }; then rm -rf -- "$cur"; break; fi
    [ -e "$cur" ] || break
  done
  rm -rf -- "./$1"
  shift
done
shift
restore=()
while [ "$1" != "--" ]; do restore+=("$1"); shift; done
shift
if [ \${#restore[@]} -gt 0 ]; then
  cp .git/index /tmp/index && GIT_INDEX_FILE=/tmp/index ${GIT} checkout "$base" -- "\${restore[@]}" >&2 ||
    { echo "acilab: could not restore the test files from $base" >&2; exit ${STEP_FAILED}; }
fi
# An empty test patch (tests already in the repository, or a selection run with no reproduction
# tests) has nothing to apply; git apply would call it an error.
if [ -s /tmp/test.patch ]; then
  ${GIT} apply --whitespace=nowarn /tmp/test.patch >&2 ||
    { echo "acilab: the test patch does not apply after restoring its files" >&2; exit ${STEP_FAILED}; }
fi
for f in "$@"; do
  if [ -f "$f" ] && [ ! -L "$f" ]; then printf '\\0%s\\0' "$f"; cat -- "$f"; fi
done`;

/** Exit status of the patch step when `git apply` refused the candidate: the other strategies come next. */
export const APPLY_REFUSED = 3;

export interface PrepareResult {
  ok: boolean;
  /** Why not, for the report. */
  error: string;
  /** The contents of the files asked for that exist as regular files. */
  files: Array<{ path: string; text: string }>;
}

export interface PrepareInput {
  patch: string;
  base: string;
  clear: string[];
  restore: string[];
  testPatch: string;
  read: string[];
}

/** A preparation's result from its status, its complaint and its NUL-framed read-back. */
export function preparedFrom(ok: boolean, error: string, stdout: string): PrepareResult {
  if (!ok) return { ok: false, error: error.slice(-2000), files: [] };
  const parts = stdout.split("\0");
  const files: PrepareResult["files"] = [];
  for (let i = 1; i + 1 < parts.length; i += 2)
    files.push({ path: parts[i] as string, text: parts[i + 1] as string });
  return { ok: true, error: "", files };
}

function shellQuote(s: string): string {
  return /^[\w./=:@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** eval.sh: every step as it ran in the sandbox (cwd /workspace), replayable by hand. */
export function evalScript(title: string, steps: readonly RecordedStep[]): string {
  const lines = [
    "#!/bin/bash",
    `# ${title}`,
    "# Each step ran in the grading sandbox, in /workspace, as the sandbox user.",
  ];
  for (const [i, s] of steps.entries()) {
    lines.push("", `# ${i + 1}. ${s.name}`);
    let call = `bash -c ${shellQuote(s.script)} ${shellQuote(`acilab-step`)} ${s.args.map(shellQuote).join(" ")}`;
    const docs: string[] = [];
    // What went to the harness (fd 3) is dropped; what came from it (fd 4) is replayed.
    if (s.fd4 !== undefined) {
      call += ` 3>/dev/null 4<<'ACILAB_FD4_${i + 1}'`;
      docs.push(s.fd4.replace(/\n$/, ""), `ACILAB_FD4_${i + 1}`);
    }
    if (s.stdin !== null) {
      call += ` <<'ACILAB_STDIN_${i + 1}'`;
      docs.push(s.stdin.replace(/\n$/, ""), `ACILAB_STDIN_${i + 1}`);
    }
    lines.push(call, ...docs);
  }
  return `${lines.join("\n")}\n`;
}
