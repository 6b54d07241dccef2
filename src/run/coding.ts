/**
 * Coding tasks as a run kind: a fresh copy-on-write checkout → the agent loop (or the Agentless
 * workflow) with the tool set in a sandbox → the patch → graded on a fresh copy with the hidden tests
 * (report.json, test_output.txt, patch.diff beside the trajectory).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgentless } from "../agentless/index.js";
import { gradeTask } from "../eval/index.js";
import { type RepoMapChoice, type TaskHarnessChoice, taskHarness } from "../harness/index.js";
import { parseHistorySpec } from "../history/index.js";
import { DEFAULT_LIMITS, type Limits, type RunOutcome } from "../loop/index.js";
import { makePolicy } from "../policies/index.js";
import { type BackendChoice, formatDecisions, type Sandbox } from "../sandbox/index.js";
import type { GradingRules, InstanceReport, PinPolicy } from "../swebench/index.js";
import {
  checkoutTask,
  instanceEnvironment,
  openTaskSandbox,
  referenceScript,
  type Task,
} from "../tasks/index.js";
import {
  type ActionFormat,
  releaseSearchIndex,
  ToolRegistry,
  type Toolset,
  toolset,
  toolsForFormat,
} from "../tools/index.js";
import { Resources } from "./resources.js";
import type { GradeCore, ResultCore } from "./result.js";
import type { KindEnd, RunnableTask, SharedRun } from "./root.js";
import {
  readSubmission,
  runTaskSetup,
  type Submission,
  withSetupOverlap,
  withUncarried,
} from "./submission.js";
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
  /** An instance's environment: a pin the indexes lack is unavailable (exact, default) or the nearest version. */
  pins?: PinPolicy;
  /** The harness's features: memory file, plan tool, repo map, a settings file's hooks. */
  harness?: TaskHarnessChoice;
}

export type CodingGrade = GradeCore &
  Pick<InstanceReport, "outcome" | "patch_successfully_applied" | "rejected" | "tests_status" | "impossible">;

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
    takesWorkflow: true,
    scripted: (file) =>
      file === undefined
        ? makePolicy("scripted", { referenceScript: () => referenceScript(task, set.name) })
        : makePolicy(`scripted:${file}`),
    execute: (run) => executeCoding(task, options, run),
  };
}

/** What the agent worked in, up to the moment its workspace became a patch. */
interface Worked {
  loop: RunOutcome;
  submission: Submission;
  sandbox: { backend: string; warning: string | undefined; network: string[] };
  workspace: string;
}

/** Checkout → sandbox → harness → setup → the actor → the patch, then grading on a fresh copy. */
async function executeCoding(
  task: Task,
  options: CodingOptions,
  run: SharedRun,
): Promise<KindEnd<CodingRunResult>> {
  const set = toolset(options.tools);
  const worked = await work(task, options, set, run);
  const { patch } = worked.submission;
  if (run.out) writeFileSync(join(run.out, "patch.diff"), patch);
  // Hidden tests are applied only now, to a fresh copy: the agent never saw them.
  const graded = await gradeTask(task, patch, {
    ...(options.sandbox ? { backend: options.sandbox } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
    ...(options.pins ? { pins: options.pins } : {}),
  });
  const report = withSetupOverlap(
    withUncarried(graded.report, worked.submission.uncarried),
    worked.submission.setupOverlap,
  );
  if (run.out) {
    writeFileSync(join(run.out, "report.json"), `${JSON.stringify({ [task.id]: report }, null, 2)}\n`);
    writeFileSync(join(run.out, "test_output.txt"), graded.testOutput);
  }
  const allowNet = options.allowNet ?? [];
  const actionFormat = options.actionFormat ?? "json";
  return {
    loop: worked.loop,
    grade: {
      resolved: report.resolved,
      detail: report.detail,
      outcome: report.outcome,
      patch_successfully_applied: report.patch_successfully_applied,
      rejected: report.rejected,
      tests_status: report.tests_status,
      impossible: report.impossible,
    },
    extras: {
      tools: set.name,
      action_format: actionFormat,
      history: parseHistorySpec(options.history).name,
      sandbox: worked.sandbox.backend,
      sandbox_warning: worked.sandbox.warning ?? null,
      network: allowNet.length === 0 ? "none" : { allow: [...allowNet], decisions: worked.sandbox.network },
      rules: report.rules,
      patch_lines: patch === "" ? 0 : patch.split("\n").length - 1,
      workspace: worked.workspace,
      harness: {
        memory: options.harness?.memory !== false,
        plan: options.harness?.plan === true,
        repo_map: options.harness?.repoMap ?? "off",
        settings: options.harness?.settings ?? null,
      },
    },
  };
}

/** The agent's part: everything it may touch is held here and released, newest first, however it ends. */
async function work(task: Task, options: CodingOptions, set: Toolset, run: SharedRun): Promise<Worked> {
  const resources = new Resources();
  try {
    // An instance's environment layer: built here on first use (its log is the run's progress), then mounted.
    const environment =
      task.source.kind === "instance"
        ? await instanceEnvironment(task.source.instance, {
            log: run.log,
            ...(options.sandbox ? { backend: options.sandbox } : {}),
            ...(options.pins ? { pins: options.pins } : {}),
          })
        : undefined;
    const { checkout, gitDir } = resources.hold(await checkoutTask(task), (c) => c.checkout.dispose());
    const root = checkout.root;
    const { sandbox, warning } = await openTaskSandbox(task, root, options.sandbox, {
      environment,
      fromSnapshot: true,
      allowNet: options.allowNet ?? [],
    });
    resources.hold(sandbox, (s) => s.close());
    resources.defer(() => releaseSearchIndex(root));
    // An interrupt kills whatever command is running now; the loop then stops with reason "aborted".
    const onAbort = () => void sandbox.close();
    run.signal?.addEventListener("abort", onAbort, { once: true });
    resources.defer(() => run.signal?.removeEventListener("abort", onAbort));
    const setupBlocks = await runTaskSetup(task, environment?.setup ?? [], sandbox, checkout, run.signal);
    const loop = await act(task, options, set, run, { root, gitDir, sandbox });
    // Nothing may change the workspace while the host reads it (a process left running could swap a
    // file for a FIFO mid-read): the sandbox goes first.
    await resources.release(sandbox);
    return {
      loop,
      submission: await readSubmission(checkout, setupBlocks),
      sandbox: { backend: sandbox.backend, warning, network: formatDecisions(sandbox.networkLog()) },
      workspace: checkout.warning ? `copy (${checkout.warning})` : checkout.kind,
    };
  } finally {
    await resources.dispose();
  }
}

/** The actor in the workspace: the agent loop with the tool set, or the Agentless workflow. */
async function act(
  task: Task,
  options: CodingOptions,
  set: Toolset,
  run: SharedRun,
  workspace: { root: string; gitDir: string; sandbox: Sandbox },
): Promise<RunOutcome> {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  if (run.actor.kind === "agentless")
    return runAgentless({
      task,
      actor: run.actor.workflow,
      ledger: run.ledger,
      trajectory: run.trajectory,
      runId: run.runId,
      limits,
      workspace: workspace.root,
      grade: {
        ...(options.sandbox ? { backend: options.sandbox } : {}),
        ...(run.signal ? { signal: run.signal } : {}),
      },
      ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    });
  const actionFormat = options.actionFormat ?? "json";
  // Memory, plan, repo map and a settings file's hooks: the harness's features as this arm chose them.
  const harness = await taskHarness(workspace.root, options.harness ?? {}, {
    runId: run.runId,
    ...(run.out ? { transcriptPath: join(run.out, "trajectory.jsonl") } : {}),
    notice: run.warn,
  });
  const prompt = taskMessage(task);
  return runWorkspaceLoop(run, {
    task: task.id,
    toolsLabel: actionFormat === "json" ? set.name : `${set.name} (${actionFormat})`,
    registry: new ToolRegistry(toolsForFormat(actionFormat, harness.tools(set.tools))),
    workspace: { ...workspace, testCommand: task.testCommand },
    history: parseHistorySpec(options.history),
    limits,
    system: SYSTEM_PROMPT,
    memory: harness.memory,
    prompt: withContext(prompt, await harness.promptContext(prompt)),
    ...(harness.permission ? { permission: harness.permission } : {}),
    ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
    ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
  });
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
