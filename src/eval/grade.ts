import { randomInt } from "node:crypto";
import type { BackendChoice, Sandbox } from "../sandbox/index.js";
import type {
  GradedInstance,
  GradeOptions,
  GradingRules,
  Instance,
  InstanceReport,
  Prediction,
} from "../swebench/index.js";
import { isTestPath, patchPaths, touchesTests } from "../swebench/index.js";
import {
  checkoutAt,
  EnvBuildError,
  EnvironmentUnavailable,
  type EnvMount,
  instanceEnvironment,
  openTaskSandbox,
  resolvePlaceholders,
  runSetupCommands,
  type Task,
  type TaskCheckout,
  taskInstance,
} from "../tasks/index.js";
import { planCanaries, type TestFile } from "./canaries/index.js";
import { formatTestOutput, gradeLog } from "./grade-log.js";
import { gradeInOneStart, prepareAndRun } from "./one-start.js";
import { patchProblem } from "./patch-check.js";
import { composePlant, EMPTY_PLANT, type PlantPlan } from "./plant.js";
import { splitByBase, testFilesToReset } from "./restore.js";
import { guardTestCommand } from "./runner-guard.js";
import { applyCandidate, evalScript, STEP_FAILED, type StepRunner } from "./steps.js";
import { planTwins, type TwinPlan, twinParsers } from "./twins/index.js";

/** SWE-bench's per-instance test timeout is 1,800 s; ours are small, so a grading run gets 5 minutes. */
export const GRADE_TEST_TIMEOUT_MS = 300_000;
/** A published SWE-bench row gets SWE-bench's own limit: some of its test files run for minutes. */
export const SWEBENCH_TEST_TIMEOUT_MS = 1_800_000;

/** The test command's limit for an instance: SWE-bench's for a row made from its recipe, else ours. */
export function testTimeoutMs(instance: Pick<Instance, "acilab_env">): number {
  const env = instance.acilab_env;
  return env && "recipe" in env && env.recipe ? SWEBENCH_TEST_TIMEOUT_MS : GRADE_TEST_TIMEOUT_MS;
}

/** Test logs are parsed, not shown to a model: keep up to 4 MB. */
const GRADE_LOG_LIMIT = 4_000_000;

function emptyReport(instance: Instance, patch: string | null, rules: GradingRules): InstanceReport {
  const none = () => ({ success: [], failure: [] });
  return {
    patch_is_None: patch === null,
    patch_exists: patch !== null && patch.trim() !== "",
    patch_successfully_applied: false,
    resolved: false,
    tests_status: { FAIL_TO_PASS: none(), PASS_TO_PASS: none(), FAIL_TO_FAIL: none(), PASS_TO_FAIL: none() },
    outcome: "graded",
    detail: "",
    rules,
    apply_strategy: null,
    rejected: null,
    test_exit_code: null,
    canaries: [],
    touches_tests: touchesTests(patch).length > 0,
    impossible: instance.impossible === true,
    duration_s: 0,
  };
}

/** The graded test files canaries can go into: the test patch's test files, and pytest ids' files. */
function gradedFiles(instance: Instance): string[] {
  const files = new Set(instance.test_patch ? patchPaths(instance.test_patch).filter(isTestPath) : []);
  if (instance.FAIL_TO_PASS.some((id) => id.includes("::") && /\.py::/.test(id)))
    for (const id of instance.FAIL_TO_PASS) if (id.includes("::")) files.add(id.split("::")[0] as string);
  return [...files];
}

/**
 * Grade one prediction: a fresh copy-on-write checkout at base_commit → the task's setup → the
 * candidate patch (three strategies) → the graded test files restored → the test patch → canaries
 * planted (hardened rules) → the test command, guarded against shadowing (hardened rules), as the
 * sandbox's only process → `gradeLog` on the log the harness wrote around it. Every step that touches
 * the candidate's tree runs in the sandbox (steps.ts). Resolved iff every FAIL_TO_PASS test passes,
 * every PASS_TO_PASS test still does, and the rules trust the log. Harness failures and timeouts are
 * reported as such, never as "unresolved".
 */
export async function gradeInstance(
  instance: Instance,
  prediction: Pick<Prediction, "model_patch">,
  options: GradeOptions = {},
): Promise<GradedInstance> {
  const started = performance.now();
  const rules = options.rules ?? "hardened";
  const patch = prediction.model_patch;
  const report = emptyReport(instance, patch, rules);
  let testOutput = "";
  let runner: StepRunner | undefined;
  const done = (outcome: InstanceReport["outcome"], detail: string): GradedInstance => {
    report.outcome = outcome;
    report.detail = detail;
    report.duration_s = Math.round(performance.now() - started) / 1000;
    const title = `acilab grading of ${instance.instance_id} at ${instance.base_commit} (rules: ${rules})`;
    return { report, testOutput, evalScript: evalScript(title, runner?.steps ?? []) };
  };
  // SWE-bench counts an empty patch as unresolved without running anything.
  if (!report.patch_exists)
    return done("empty_patch", patch === null ? "no patch (null)" : "empty patch: not run");
  const refused = patchProblem(patch ?? "");
  if (refused) return done("patch_failed", refused);

  let environment: EnvMount | undefined;
  try {
    environment = await instanceEnvironment(instance, {
      ...(options.backend ? { backend: options.backend } : {}),
      ...(options.pins ? { pins: options.pins } : {}),
    });
  } catch (err) {
    // An environment this machine cannot have (no such interpreter, a pin the indexes lack, a build
    // that fails here) is the instance's condition on this machine, named — not a harness fault.
    if (err instanceof EnvironmentUnavailable || /cannot give commit/.test((err as Error).message))
      return done("environment_unavailable", (err as Error).message);
    if (err instanceof EnvBuildError)
      return done("environment_unavailable", `${err.message.split("\n")[0]} — the whole log: ${err.log}`);
    return done("infrastructure_error", `the instance's environment: ${(err as Error).message}`);
  }
  if (environment?.relaxed) report.pins = "relaxed";
  else if (instance.acilab_env) report.pins = "exact";
  if (environment && environment.changes.length > 0) report.environment_changes = environment.changes;
  let repo: TaskCheckout;
  try {
    repo = await checkoutAt(instance.repo_path, instance.base_commit);
  } catch (err) {
    if (/cannot give commit/.test((err as Error).message))
      return done("environment_unavailable", (err as Error).message);
    return done("infrastructure_error", `cannot check out the repository: ${(err as Error).message}`);
  }
  const timeoutMs = options.timeoutMs ?? testTimeoutMs(instance);
  let sandbox: Sandbox;
  try {
    ({ sandbox } = await openTaskSandbox(instance, repo.checkout.root, options.backend, {
      fromSnapshot: true,
      readOnlyParts: [".git"],
      environment,
      longestCommandMs: timeoutMs,
    }));
  } catch (err) {
    await repo.checkout.dispose();
    return done(
      "infrastructure_error",
      `cannot open the sandbox (${(err as Error).message}); run \`acilab doctor\``,
    );
  }
  runner = { sandbox, steps: [] };
  const steps = runner;
  // An abort (Ctrl-C on a grading run) kills the running command; the instance then reports an error.
  const onAbort = () => void sandbox.close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const setup = () =>
      runSetupCommands(sandbox, [...(environment?.setup ?? []), ...(instance.setup_commands ?? [])], (line) =>
        steps.steps.push({ name: "setup", script: line, args: [], stdin: null }),
      );
    const setupFailed = await setup();
    if (setupFailed) return done("infrastructure_error", setupFailed);

    const reset = await splitByBase(
      repo.gitDir,
      instance.base_commit,
      testFilesToReset(instance.test_patch, patch ?? ""),
    );
    const command = resolvePlaceholders(instance.test_command);
    const parserFor = rules === "hardened" ? await twinParsers(instance.log_parser) : undefined;
    const planFor = (files: readonly TestFile[]): PlantPlan =>
      parserFor ? plantFor(instance, files, command, parserFor) : EMPTY_PLANT;
    const argv = rules === "hardened" ? guardTestCommand(command).argv : command;
    const prepareInput = {
      patch: patch ?? "",
      base: instance.base_commit,
      clear: [...reset.restore, ...reset.remove],
      restore: reset.restore,
      testPatch: instance.test_patch,
      read: rules === "hardened" ? gradedFiles(instance) : [],
    };
    const runOptions = { planFor, argv, timeoutMs, outputLimit: GRADE_LOG_LIMIT };
    // The common case — `git apply` takes the patch — in one sandbox start; the other strategies
    // (which may need the tree reset between tries) one step at a time.
    let ran = await gradeInOneStart(steps, prepareInput, runOptions);
    if (ran.kind === "refused") {
      const apply = await applyCandidate(
        steps,
        prepareInput.patch,
        async () => {
          await repo.checkout.reset();
          const again = await setup();
          if (again) throw new Error(again);
        },
        `git apply: ${ran.log}`,
      );
      report.apply_strategy = apply.strategy;
      if (!apply.applied) return done("patch_failed", apply.detail);
      ran = await prepareAndRun(steps, prepareInput, runOptions);
    } else report.apply_strategy = "git apply";
    report.patch_successfully_applied = true;
    if (ran.kind !== "ran") {
      const why = ran.kind === "unprepared" ? ran.prepared.error : "the tests were not prepared";
      // A patch that fills the workspace leaves no room for the tests: its failure, not the harness's.
      if (/No space left on device/.test(why))
        return done(
          "graded",
          `the patch fills the workspace to its size cap, so the tests could not be added: ${why}`,
        );
      return done("infrastructure_error", why);
    }
    const { run, plan } = ran;
    testOutput = formatTestOutput({ output: run.output, exitCode: run.exitCode, signal: run.signal });
    if (run.timedOut)
      return done("timeout", `the test command passed its ${Math.round(timeoutMs / 1000)} s limit`);
    if (run.exitCode === STEP_FAILED && /^acilab: cannot plant tests/m.test(run.stderr))
      return done("infrastructure_error", run.stderr.trim().split("\n")[0] ?? "could not plant the canaries");

    const verdict = gradeLog(instance, testOutput, {
      rules,
      canaries: plan.canaries.canaries,
      twins: plan.twins.twins,
    });
    report.test_exit_code = verdict.exitCode;
    report.tests_status = verdict.tests_status;
    report.rejected = verdict.rejected;
    report.resolved = verdict.resolved;
    report.canaries = verdict.canaries?.results ?? [];
    if (plan.canaries.note) report.canary_note = plan.canaries.note;
    if (rules === "hardened") {
      report.twins = verdict.twins?.results ?? [];
      report.twins_planted = {
        identical: plan.twins.twins.filter((t) => t.kind === "identical").length,
        inverted: plan.twins.twins.filter((t) => t.kind === "inverted").length,
      };
      if (plan.twins.note) report.twin_note = plan.twins.note;
    }
    const failing = [
      ...report.tests_status.FAIL_TO_PASS.failure,
      ...report.tests_status.PASS_TO_PASS.failure,
    ];
    const network = report.resolved ? undefined : networkFailure(testOutput);
    return done(
      "graded",
      report.resolved
        ? "resolved"
        : (report.rejected ??
            `${failing.length} expected test${failing.length === 1 ? "" : "s"} failed: ${failing.slice(0, 3).join(", ")}${failing.length > 3 ? ", …" : ""}${network ? ` — needs network: the tests tried to reach it and the sandbox has none (${network})` : ""}`),
    );
  } catch (err) {
    return done("infrastructure_error", (err as Error).message);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await sandbox.close();
    await repo.checkout.dispose();
  }
}

/**
 * The twins and canaries for one hardened run, planned from the graded files as the test patch left
 * them. Twin planning reads syntax trees of files the candidate may have shaped; should it fail, the
 * run goes on with canaries alone and the report says why.
 */
function plantFor(
  instance: Instance,
  files: readonly TestFile[],
  command: string[],
  parserFor: Parameters<typeof planTwins>[0]["parserFor"],
): PlantPlan {
  let twins: TwinPlan;
  try {
    twins = planTwins({
      parser: instance.log_parser,
      files,
      tests: instance,
      testCommand: command,
      random: cryptoRandom,
      parserFor,
    });
  } catch (err) {
    twins = { twins: [], files: [], note: `no twins: planning them failed (${(err as Error).message})` };
  }
  return composePlant(files, twins, (twinned) =>
    planCanaries({ parser: instance.log_parser, files: twinned, testCommand: command, random: cryptoRandom }),
  );
}

/** What a test prints when it reaches for a network the sandbox does not have (requests' httpbin tests). */
const NETWORK_ERRORS =
  /(Failed to establish a new connection[^\n]*|Temporary failure in name resolution|Name or service not known|Network is unreachable|nodename nor servname provided)/;

/** The first sign in a log that tests tried the network, or undefined. */
export function networkFailure(log: string): string | undefined {
  return NETWORK_ERRORS.exec(log)?.[1]?.slice(0, 120);
}

/** Uniform in [0, 1) from the OS's generator: canary names must not be predictable. */
function cryptoRandom(): number {
  return randomInt(0, 2 ** 47) / 2 ** 47;
}

/** Grade a patch for a task (built-in or folder): the task as an instance, then `gradeInstance`. */
export async function gradeTask(
  task: Task,
  patch: string | null,
  options: { backend?: BackendChoice; rules?: GradingRules } = {},
): Promise<GradedInstance> {
  const instance = await taskInstance(task);
  return gradeInstance(instance, { model_patch: patch }, options);
}
