import { randomBytes } from "node:crypto";
import type { BackendChoice } from "../sandbox/index.js";
import { isResolved, scoreStatuses, touchesTests } from "../swebench/index.js";
import type {
  GradedInstance,
  GradeOptions,
  Instance,
  InstanceReport,
  Prediction,
} from "../swebench/types.js";
import { checkoutAt, openTaskSandbox, resolvePlaceholders, type Task, taskInstance } from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { applyCandidate, type TrustedRepo } from "./apply-patch.js";
import { LOG_PARSERS, lookupStatus, suiteRan, type TestStatus, type TestStatusMap } from "./parsers/index.js";
import { restoreTestFiles } from "./restore.js";

/** SWE-bench's per-instance test timeout is 1,800 s; ours are small, so a grading run gets 5 minutes. */
export const GRADE_TEST_TIMEOUT_MS = 300_000;
/** Test logs are parsed, not shown to a model: keep up to 4 MB. */
const GRADE_LOG_LIMIT = 4_000_000;

/** Reasons to distrust a log even when the expected tests look green. */
export function rejectLog(
  statuses: TestStatusMap,
  exitCode: number | null,
  ran: { ran: boolean; why: string } = { ran: true, why: "" },
): string | null {
  if (statuses.size === 0)
    return "no test results in the log: the suite did not run (collection error or crash)";
  if (!ran.ran) return `no sign the suite ran to its end: ${ran.why}`;
  const anyFailed = [...statuses.values()].some((s) => s === "FAILED" || s === "ERROR");
  if (exitCode !== 0 && !anyFailed)
    return `the test command exited with ${exitCode ?? "a signal"} but reported no failed test (forged results?)`;
  return null;
}

function emptyReport(instance: Instance, patch: string | null): InstanceReport {
  const none = () => ({ success: [], failure: [] });
  return {
    patch_is_None: patch === null,
    patch_exists: patch !== null && patch.trim() !== "",
    patch_successfully_applied: false,
    resolved: false,
    tests_status: { FAIL_TO_PASS: none(), PASS_TO_PASS: none(), FAIL_TO_FAIL: none(), PASS_TO_FAIL: none() },
    outcome: "graded",
    detail: "",
    apply_strategy: null,
    rejected: null,
    test_exit_code: null,
    touches_tests: touchesTests(patch).length > 0,
    impossible: instance.impossible === true,
    duration_s: 0,
  };
}

/**
 * Grade one prediction the way SWE-bench's harness does: a fresh copy-on-write checkout at
 * base_commit → apply the patch (three strategies) → restore the files the test patch touches →
 * apply the test patch → run the tests in the sandbox between markers only the harness knows →
 * parse → bucket. Resolved iff every FAIL_TO_PASS test passes, every PASS_TO_PASS test still does,
 * and the log is trustworthy. Harness failures and timeouts are reported as such, never as "unresolved".
 */
export async function gradeInstance(
  instance: Instance,
  prediction: Pick<Prediction, "model_patch">,
  options: GradeOptions = {},
): Promise<GradedInstance> {
  const started = performance.now();
  const patch = prediction.model_patch;
  const report = emptyReport(instance, patch);
  const script: string[] = ["#!/bin/bash", `# acilab grading of ${instance.instance_id}`, "set -uo pipefail"];
  let testOutput = "";
  const done = (outcome: InstanceReport["outcome"], detail: string): GradedInstance => {
    report.outcome = outcome;
    report.detail = detail;
    report.duration_s = Math.round(performance.now() - started) / 1000;
    return { report, testOutput, evalScript: `${script.join("\n")}\n` };
  };
  // SWE-bench counts an empty patch as unresolved without running anything.
  if (!report.patch_exists)
    return done("empty_patch", patch === null ? "no patch (null)" : "empty patch: not run");

  let repo: TrustedRepo;
  try {
    const { checkout, gitDir } = await checkoutAt(instance.repo_path, instance.base_commit);
    repo = { checkout, gitDir };
  } catch (err) {
    return done("infrastructure_error", `cannot check out the repository: ${(err as Error).message}`);
  }
  script.push(`git checkout -q ${instance.base_commit}   # copy-on-write checkout of ${instance.repo_path}`);
  const { sandbox, error } = await openTaskSandbox(
    instance,
    repo.checkout.root,
    options.backend as BackendChoice | undefined,
    {
      fromSnapshot: true,
    },
  )
    .then((opened) => ({ ...opened, error: undefined }))
    .catch((err: Error) => ({ sandbox: undefined, error: err }));
  if (!sandbox) {
    await repo.checkout.dispose();
    return done("infrastructure_error", `cannot open the sandbox (${error?.message}); run \`acilab doctor\``);
  }
  // An abort (Ctrl-C on a grading run) kills the running command; the instance then reports an error.
  const onAbort = () => void sandbox.close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (const line of instance.setup_commands ?? []) {
      script.push(line);
      const r = await sandbox.exec({ argv: ["bash", "-c", line], timeoutMs: GRADE_TEST_TIMEOUT_MS });
      if (r.exitCode !== 0)
        return done(
          "infrastructure_error",
          `setup command failed (exit ${r.exitCode}): ${line}\n${r.output.slice(-2000)}`,
        );
    }
    const applied = await applyCandidate(repo, patch ?? "");
    script.push(
      "git apply --verbose model.patch || git apply --3way model.patch || patch --batch --fuzz=5 -p1 -i model.patch",
    );
    report.apply_strategy = applied.strategy;
    if (!applied.applied) return done("patch_failed", applied.detail);
    report.patch_successfully_applied = true;

    const { restored, removed } = await restoreTestFiles(
      repo,
      instance.base_commit,
      instance.test_patch,
      patch ?? "",
    );
    if (restored.length > 0) script.push(`git checkout ${instance.base_commit} -- ${restored.join(" ")}`);
    if (removed.length > 0) script.push(`rm -rf -- ${removed.join(" ")}`);
    try {
      await git(repo.checkout.root, ["apply", "--whitespace=nowarn", "-"], {
        env: { GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.checkout.root },
        input: instance.test_patch,
      });
    } catch (err) {
      return done(
        "infrastructure_error",
        `the test patch does not apply after restoring its files: ${(err as Error).message}`,
      );
    }
    script.push("git apply test.patch");

    // Markers with a secret in them: a test that prints "end of tests" cannot fake where the run ended.
    const nonce = randomBytes(8).toString("hex");
    const start = `>>>>> acilab start ${nonce}`;
    const end = `>>>>> acilab end ${nonce}`;
    const argv = resolvePlaceholders(instance.test_command);
    script.push(`${argv.map(shellQuote).join(" ")}   # between start/end markers, exit code recorded`);
    const run = await sandbox.exec({
      argv: [
        "bash",
        "-c",
        'printf "%s\\n" "$START"; "$@"; rc=$?; printf "%s %d\\n" "$END" "$rc"; exit "$rc"',
        "acilab-test",
        ...argv,
      ],
      env: { START: start, END: end },
      timeoutMs: options.timeoutMs ?? GRADE_TEST_TIMEOUT_MS,
      outputLimit: GRADE_LOG_LIMIT,
    });
    report.test_exit_code = run.exitCode;
    // The combined output, as a person reads it: some runners (cargo) report on stderr.
    const from = run.output.indexOf(`${start}\n`);
    const to = run.output.lastIndexOf(`${end} `);
    testOutput = from < 0 ? run.output : run.output.slice(from + start.length + 1, to < 0 ? undefined : to);
    if (run.timedOut)
      return done(
        "timeout",
        `the test command passed its ${Math.round((options.timeoutMs ?? GRADE_TEST_TIMEOUT_MS) / 1000)} s limit`,
      );
    if (from < 0)
      return done("infrastructure_error", `the test command never started: ${run.output.slice(-500)}`);
    const statuses = LOG_PARSERS[instance.log_parser](testOutput);
    const expected = [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS];
    const found = new Map<string, TestStatus>();
    for (const id of expected) {
      const status = lookupStatus(statuses, id, expected);
      if (status !== undefined) found.set(id, status);
    }
    report.tests_status = scoreStatuses(instance.FAIL_TO_PASS, instance.PASS_TO_PASS, found);
    report.rejected =
      to < 0
        ? "the test run did not reach its end marker: the shell running it was killed or replaced"
        : rejectLog(statuses, run.exitCode, suiteRan(instance.log_parser, testOutput));
    report.resolved = report.rejected === null && isResolved(report.tests_status);
    const failing = [
      ...report.tests_status.FAIL_TO_PASS.failure,
      ...report.tests_status.PASS_TO_PASS.failure,
    ];
    return done(
      "graded",
      report.resolved
        ? "resolved"
        : (report.rejected ??
            `${failing.length} expected test${failing.length === 1 ? "" : "s"} failed: ${failing.slice(0, 3).join(", ")}${failing.length > 3 ? ", …" : ""}`),
    );
  } catch (err) {
    return done("infrastructure_error", (err as Error).message);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await sandbox.close();
    await repo.checkout.dispose();
  }
}

function shellQuote(s: string): string {
  return /^[\w./=:@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Grade a patch for a task (built-in or folder): the task as an instance, then `gradeInstance`. */
export async function gradeTask(
  task: Task,
  patch: string | null,
  backend?: BackendChoice,
): Promise<GradedInstance> {
  const instance = await taskInstance(task);
  return gradeInstance(instance, { model_patch: patch }, backend ? { backend } : {});
}
