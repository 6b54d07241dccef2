/**
 * Coding tasks as a run kind: a fresh copy-on-write checkout → the agent loop with the tool set in a
 * sandbox → the patch → graded on a fresh copy with the hidden tests (report.json, test_output.txt,
 * patch.diff beside the trajectory).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgentless } from "../agentless/index.js";
import { gradeTask } from "../eval/index.js";
import { type RepoMapChoice, type TaskHarnessChoice, taskHarness } from "../harness/index.js";
import { parseHistorySpec } from "../history/index.js";
import { DEFAULT_LIMITS, type Limits } from "../loop/index.js";
import { isAgentless, makePolicy } from "../policies/index.js";
import { type BackendChoice, BwrapSandbox, formatDecisions, type Sandbox } from "../sandbox/index.js";
import { type GradingRules, type InstanceReport, patchPaths, splitDiff } from "../swebench/index.js";
import {
  checkoutTask,
  instanceEnvironment,
  openTaskSandbox,
  referenceScript,
  runSetupCommands,
  type Task,
} from "../tasks/index.js";
import {
  type ActionFormat,
  releaseSearchIndex,
  ToolRegistry,
  toolset,
  toolsForFormat,
} from "../tools/index.js";
import { type Checkout, describeUncarried } from "../workspace/index.js";
import type { GradeCore, ResultCore } from "./result.js";
import type { KindEnd, RunnableTask, SharedRun } from "./root.js";
import { runWorkspaceLoop } from "./workspace-loop.js";

const SYSTEM_PROMPT = readFileSync(new URL("./coding-system-prompt.txt", import.meta.url), "utf8");

export interface CodingOptions {
  /** A tool set name (`acilab tasks list --toolsets`). */
  tools: string;
  history: string;
  /** json (default): one tool call per JSON object; code: one program per turn calling the tools. */
  actionFormat?: ActionFormat;
  limits?: Partial<Limits>;
  commandTimeoutMs?: number;
  maxOutputTokens?: number;
  /** Sandbox backend (default: ACILAB_SANDBOX, else auto = bwrap where it works). */
  sandbox?: BackendChoice;
  /** Hosts the agent's commands may reach through the sandbox's proxy; empty = no network. */
  allowNet?: readonly string[];
  /** Grading rules for the final verdict (default "hardened"). */
  rules?: GradingRules;
  /** The harness's features: memory file, plan tool, repo map, a settings file's hooks. */
  harness?: TaskHarnessChoice;
}

export type CodingGrade = GradeCore &
  Pick<InstanceReport, "outcome" | "patch_successfully_applied" | "rejected" | "tests_status">;

/** result.json of a coding run: the common fields, then how it ran and what the patch was. */
export type CodingRunResult = ResultCore<"coding", CodingGrade> & {
  tools: string;
  action_format: ActionFormat;
  history: string;
  sandbox: string;
  /** Set when commands ran with weaker isolation than the bwrap backend, and why. */
  sandbox_warning: string | null;
  /** "none", or the allowlist and what the proxy allowed and refused (one line per target). */
  network: "none" | { allow: string[]; decisions: string[] };
  /** The rules the hidden tests' log was graded under. */
  rules: GradingRules;
  patch_lines: number;
  /** The workspace: an overlay checkout of the task's snapshot, or a copy (and why). */
  workspace: string;
  /** The harness's features this run had (an arm's memory / plan / repo_map / settings). */
  harness: { memory: boolean; plan: boolean; repo_map: RepoMapChoice; settings: string | null };
};

export function codingRun(task: Task, options: CodingOptions): RunnableTask<CodingRunResult> {
  const set = toolset(options.tools);
  return {
    kind: "coding",
    id: task.id,
    scripted: (file) =>
      file === undefined
        ? makePolicy("scripted", { referenceScript: () => referenceScript(task, set.name) })
        : makePolicy(`scripted:${file}`),
    execute: (run) => executeCoding(task, options, run),
  };
}

async function executeCoding(
  task: Task,
  options: CodingOptions,
  run: SharedRun,
): Promise<KindEnd<CodingRunResult>> {
  const set = toolset(options.tools);
  const history = parseHistorySpec(options.history);
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  // An instance's environment layer: built here on first use (its log on stderr), then mounted.
  const environment =
    task.source.kind === "instance"
      ? await instanceEnvironment(task.source.instance, {
          log: (line) => process.stderr.write(`${line}\n`),
          ...(options.sandbox ? { backend: options.sandbox } : {}),
        })
      : undefined;
  const { checkout, gitDir } = await checkoutTask(task);
  const root = checkout.root;
  const opened = await openTaskSandbox(task, root, options.sandbox, {
    environment,
    fromSnapshot: true,
    allowNet: options.allowNet ?? [],
  }).catch(async (err) => {
    await checkout.dispose();
    throw err;
  });
  const { sandbox, warning: sandboxWarning } = opened;
  const actionFormat = options.actionFormat ?? "json";
  // Memory, plan, repo map and a settings file's hooks: the harness's features as this arm chose them.
  const harness = await taskHarness(root, options.harness ?? {}, {
    runId: run.runId,
    ...(run.out ? { transcriptPath: join(run.out, "trajectory.jsonl") } : {}),
    notice: (text) => process.stderr.write(`${text}\n`),
  }).catch(async (err) => {
    await sandbox.close();
    await checkout.dispose();
    throw err;
  });
  const registry = new ToolRegistry(toolsForFormat(actionFormat, harness.tools(set.tools)));
  const memory = harness.memory;
  // An interrupt kills whatever command is running now; the loop then stops with reason "aborted".
  const onAbort = () => void sandbox.close();
  run.signal?.addEventListener("abort", onAbort, { once: true });
  let submission: Submission = { patch: "", uncarried: [], setupOverlap: [] };
  let loop: KindEnd<CodingRunResult>["loop"];
  try {
    const setupBlocks = await runTaskSetup(task, environment?.setup ?? [], sandbox, checkout, run.signal);
    // A workflow policy (agentless) acts in place of the loop; both leave their answer in the workspace.
    const outcome = isAgentless(run.policy)
      ? await runAgentless({
          task,
          policy: run.policy,
          ledger: run.ledger,
          trajectory: run.trajectory,
          runId: run.runId,
          limits,
          workspace: root,
          grade: {
            ...(options.sandbox ? { backend: options.sandbox } : {}),
            ...(run.signal ? { signal: run.signal } : {}),
          },
          ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
          ...(run.signal ? { signal: run.signal } : {}),
        })
      : await runWorkspaceLoop(run, {
          task: task.id,
          toolsLabel: actionFormat === "json" ? set.name : `${set.name} (${actionFormat})`,
          registry,
          workspace: { root, gitDir, sandbox, testCommand: task.testCommand },
          history,
          limits,
          system: SYSTEM_PROMPT,
          memory,
          prompt: withContext(taskMessage(task), await harness.promptContext(taskMessage(task))),
          ...(harness.permission ? { permission: harness.permission } : {}),
          ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
          ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
        });
    loop = outcome;
    // Nothing may change the workspace while the host reads it (a process left running could swap a
    // file for a FIFO mid-read): the sandbox goes first.
    await sandbox.close();
    submission = await readSubmission(checkout, setupBlocks);
  } finally {
    run.signal?.removeEventListener("abort", onAbort);
    releaseSearchIndex(root);
    await sandbox.close();
    await checkout.dispose();
  }
  const { patch } = submission;
  if (run.out) writeFileSync(join(run.out, "patch.diff"), patch);
  // Hidden tests are applied only now, to a fresh copy: the agent never saw them.
  const graded = await gradeTask(task, patch, {
    ...(options.sandbox ? { backend: options.sandbox } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
  });
  const report = withSetupOverlap(
    withUncarried(graded.report, submission.uncarried),
    submission.setupOverlap,
  );
  if (run.out) {
    writeFileSync(join(run.out, "report.json"), `${JSON.stringify({ [task.id]: report }, null, 2)}\n`);
    writeFileSync(join(run.out, "test_output.txt"), graded.testOutput);
  }
  const allowNet = options.allowNet ?? [];
  return {
    loop,
    grade: {
      resolved: report.resolved,
      detail: report.detail,
      outcome: report.outcome,
      patch_successfully_applied: report.patch_successfully_applied,
      rejected: report.rejected,
      tests_status: report.tests_status,
    },
    extras: {
      tools: set.name,
      action_format: actionFormat,
      history: history.name,
      sandbox: sandbox.backend,
      sandbox_warning: sandboxWarning ?? null,
      network:
        allowNet.length === 0
          ? "none"
          : {
              allow: [...allowNet],
              decisions: formatDecisions(sandbox instanceof BwrapSandbox ? sandbox.networkLog() : []),
            },
      rules: report.rules,
      patch_lines: patch === "" ? 0 : patch.split("\n").length - 1,
      workspace: checkout.warning ? `copy (${checkout.warning})` : checkout.kind,
      harness: {
        memory: options.harness?.memory !== false,
        plan: options.harness?.plan === true,
        repo_map: options.harness?.repoMap ?? "off",
        settings: options.harness?.settings ?? null,
      },
    },
  };
}

/** The patch, and the changes it cannot carry; a workspace the host cannot read is a reason, not a crash. */
interface Submission {
  patch: string;
  uncarried: string[];
  /** Files both setup and the agent changed: in the patch whole, setup's part included. */
  setupOverlap: string[];
}

/**
 * The task's setup (an instance's setup_commands) in the agent's sandbox, as the grader runs it in its
 * own: the agent meets the repository the tests will run in. Returns what setup changed in the tree,
 * each file's diff block with the paths it names, so the submission can leave it out (the grader's
 * setup makes it again).
 */
async function runTaskSetup(
  task: Task,
  environmentSetup: readonly string[],
  sandbox: Sandbox,
  checkout: Checkout,
  signal: AbortSignal | undefined,
): Promise<ReadonlyMap<string, string[]>> {
  const lines = [...environmentSetup, ...(task.setupCommands ?? [])];
  if (lines.length === 0) return new Map();
  const failed = await runSetupCommands(sandbox, lines).catch((e: unknown) =>
    e instanceof Error ? e.message : String(e),
  );
  if (signal?.aborted) throw new Error(`task "${task.id}": interrupted during its setup`);
  if (failed)
    throw new Error(
      `task "${task.id}": ${failed} — the agent never started; fix the instance's setup_commands`,
    );
  return new Map(splitDiff((await checkout.patch()).diff).map((block) => [block, patchPaths(block)]));
}

/**
 * The workspace's patch, less the file changes that are exactly as setup left them. A file both
 * setup and the agent changed stays whole in the patch — setup's part with it, which the grader's own
 * setup makes again — and is named in `setupOverlap` so the grade says so. An environment layer's
 * generated files (a `_version.py`) are put back by a setup line, and are left out the same way.
 */
async function readSubmission(
  checkout: Checkout,
  setupBlocks: ReadonlyMap<string, string[]>,
): Promise<Submission> {
  try {
    const { diff, uncarried } = await checkout.patch();
    const described = uncarried.map(describeUncarried);
    if (setupBlocks.size === 0) return { patch: diff, uncarried: described, setupOverlap: [] };
    const setupPaths = new Set([...setupBlocks.values()].flat());
    const kept = splitDiff(diff).filter((b) => !setupBlocks.has(b));
    const setupOverlap = [...new Set(kept.flatMap(patchPaths).filter((p) => setupPaths.has(p)))];
    return { patch: kept.join(""), uncarried: described, setupOverlap };
  } catch (err) {
    const why = (err as Error).message.split("\n")[0];
    return {
      patch: "",
      uncarried: [`the workspace's changes could not be read as a patch (${why})`],
      setupOverlap: [],
    };
  }
}

/** Uncarried changes listed in a grade's detail; more are counted. */
const MAX_LISTED_UNCARRIED = 5;

/** The submission is the workspace: when the patch cannot carry all of it, the attempt is not resolved. */
function withUncarried(report: InstanceReport, uncarried: string[]): InstanceReport {
  if (uncarried.length === 0) return report;
  const listed = uncarried.slice(0, MAX_LISTED_UNCARRIED).join("; ");
  const more =
    uncarried.length > MAX_LISTED_UNCARRIED ? ` and ${uncarried.length - MAX_LISTED_UNCARRIED} more` : "";
  return {
    ...report,
    resolved: false,
    detail: `the patch cannot carry every change in the workspace — ${listed}${more}; graded on the rest: ${report.detail}`,
  };
}

/** The verdict stands (the grader applied the patch over its own setup), but the detail says why it may mislead. */
function withSetupOverlap(report: InstanceReport, files: string[]): InstanceReport {
  if (files.length === 0) return report;
  return {
    ...report,
    detail: `${report.detail} — note: the patch also carries setup's own changes to ${files.join(", ")} (setup and the agent both changed them), applied over the grader's setup`,
  };
}

/** Hooks' context after the task's own words. */
function withContext(prompt: string, context: string): string {
  return context === "" ? prompt : `${prompt}\n\n${context}`;
}

function taskMessage(task: Task): string {
  const lines = [`Fix this issue in the repository.`, "", "<issue>", task.issue.trim(), "</issue>", ""];
  lines.push(`The project's tests run with: ${task.testCommand.join(" ")}`);
  if (task.language === "typescript")
    lines.push('TypeScript files run with: node --import "$ACILAB_TSX" <file.ts>');
  return lines.join("\n");
}
