import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gradeTask } from "../eval/index.js";
import { parseHistorySpec } from "../history/index.js";
import { Ledger, withOverrides } from "../ledger/index.js";
import { makePolicy } from "../policies/index.js";
import { type BackendChoice, BwrapSandbox, formatDecisions } from "../sandbox/index.js";
import type { GradingRules, InstanceReport } from "../swebench/types.js";
import { checkoutTask, openTaskSandbox, referenceScript, type Task } from "../tasks/index.js";
import { type ActionFormat, toolsForFormat } from "../tools/code/index.js";
import { ToolRegistry } from "../tools/registry.js";
import { releaseSearchIndex } from "../tools/search/index.js";
import { toolset } from "../tools/toolsets.js";
import { newEditorState } from "../tools/types.js";
import { TrajectoryWriter } from "../trajectory/index.js";
import { type Checkout, describeUncarried } from "../workspace/index.js";
import { runAgent } from "./agent.js";
import { loadMemory } from "./memory.js";
import { runEndRecord, runStartRecord } from "./records.js";
import { DEFAULT_LIMITS, type Limits, type RunOutcome } from "./types.js";

const SYSTEM_PROMPT = readFileSync(new URL("./system-prompt.txt", import.meta.url), "utf8");

/** Policies that call no model spend nothing: price them at zero rather than "unknown". */
export const FREE_POLICIES = withOverrides({
  scripted: { input: 0, output: 0 },
  replay: { input: 0, output: 0 },
});

/** mini-SWE-agent's SWE-bench setting is 60 s a command; our tasks' suites take seconds. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

export interface RunTaskOptions {
  task: Task;
  policySpec: string;
  tools: string;
  history: string;
  out: string;
  /** json (default): one tool call per JSON object; code: one program per turn calling the tools. */
  actionFormat?: ActionFormat;
  limits?: Partial<Limits>;
  commandTimeoutMs?: number;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  /** Sandbox backend (default: ACILAB_SANDBOX, else auto = bwrap where it works). */
  sandbox?: BackendChoice;
  /** Hosts the agent's commands may reach through the sandbox's proxy; empty = no network. */
  allowNet?: readonly string[];
  /** Grading rules for the final verdict (default "hardened"). */
  rules?: GradingRules;
}

/** result.json: what one run did and whether the hidden tests passed. */
export interface RunResult {
  task: string;
  policy: string;
  tools: string;
  action_format: ActionFormat;
  history: string;
  sandbox: string;
  /** Set when commands ran with weaker isolation than the bwrap backend, and why. */
  sandbox_warning: string | null;
  /** "none", or the allowlist and what the proxy allowed and refused (one line per target). */
  network: "none" | { allow: string[]; decisions: string[] };
  resolved: boolean;
  /** The rules the hidden tests' log was graded under. */
  rules: GradingRules;
  stop_reason: string;
  detail: string;
  steps: number;
  tokens_in: number;
  tokens_out: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  tokens_estimated: boolean;
  cost_usd: number | null;
  cache_busts: number;
  wall_s: number;
  patch_lines: number;
  /** The workspace: an overlay checkout of the task's snapshot, or a copy (and why). */
  workspace: string;
  grade: Pick<
    InstanceReport,
    "outcome" | "detail" | "patch_successfully_applied" | "rejected" | "tests_status"
  >;
}

/**
 * One task end to end: fresh workspace → agent loop in a sandbox → patch → grade on a fresh copy with
 * the hidden tests → result.json. The trajectory is written turn by turn, so a killed run keeps it.
 */
export async function runTask(options: RunTaskOptions): Promise<RunResult> {
  const { task } = options;
  mkdirSync(options.out, { recursive: true });
  const set = toolset(options.tools);
  const policy = makePolicy(options.policySpec, { referenceScript: () => referenceScript(task, set.name) });
  const history = parseHistorySpec(options.history);
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const { checkout, gitDir } = await checkoutTask(task);
  const root = checkout.root;
  const opened = await openTaskSandbox(task, root, options.sandbox, {
    fromSnapshot: true,
    allowNet: options.allowNet ?? [],
  }).catch(async (err) => {
    await checkout.dispose();
    throw err;
  });
  const { sandbox, warning: sandboxWarning } = opened;
  const actionFormat = options.actionFormat ?? "json";
  const registry = new ToolRegistry(toolsForFormat(actionFormat, set.tools));
  const trajectory = new TrajectoryWriter(join(options.out, "trajectory.jsonl"));
  const memory = loadMemory(root);
  const started = performance.now();
  // An interrupt kills whatever command is running now; the loop then stops with reason "aborted".
  const onAbort = () => void sandbox.close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let outcome: RunOutcome;
  let submission: Submission = { patch: "", uncarried: [] };
  try {
    trajectory.write(
      runStartRecord({
        runId: `${task.id}-${Date.now().toString(36)}`,
        task: task.id,
        policy: policy.spec,
        tools: actionFormat === "json" ? set.name : `${set.name} (${actionFormat})`,
        history: history.name,
        limits,
        system: SYSTEM_PROMPT,
        memory: memory,
        toolSpecs: registry.specs(),
      }),
    );
    outcome = await runAgent({
      policy,
      tools: registry,
      context: {
        root,
        gitDir,
        sandbox,
        editor: newEditorState(),
        testCommand: task.testCommand,
        commandTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      history,
      limits,
      ledger: new Ledger({ prices: FREE_POLICIES }),
      trajectory,
      system: SYSTEM_PROMPT,
      memory,
      task: taskMessage(task),
      maxOutputTokens: options.maxOutputTokens ?? 8192,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Nothing may change the workspace while the host reads it (a process left running could swap a
    // file for a FIFO mid-read): the sandbox goes first.
    await sandbox.close();
    submission = await readSubmission(checkout);
    trajectory.write(runEndRecord(outcome));
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    trajectory.close();
    releaseSearchIndex(root);
    await sandbox.close();
    await checkout.dispose();
  }
  const { patch } = submission;
  writeFileSync(join(options.out, "patch.diff"), patch);
  // Hidden tests are applied only now, to a fresh copy: the agent never saw them.
  const graded = await gradeTask(task, patch, {
    ...(options.sandbox ? { backend: options.sandbox } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
  });
  const { testOutput } = graded;
  const grade = withUncarried(graded.report, submission.uncarried);
  writeFileSync(join(options.out, "report.json"), `${JSON.stringify({ [task.id]: grade }, null, 2)}\n`);
  writeFileSync(join(options.out, "test_output.txt"), testOutput);
  const result: RunResult = {
    task: task.id,
    policy: policy.spec,
    tools: set.name,
    action_format: actionFormat,
    history: history.name,
    sandbox: sandbox.backend,
    sandbox_warning: sandboxWarning ?? null,
    network:
      (options.allowNet ?? []).length === 0
        ? "none"
        : {
            allow: [...(options.allowNet ?? [])],
            decisions: formatDecisions(sandbox instanceof BwrapSandbox ? sandbox.networkLog() : []),
          },
    resolved: grade.resolved,
    rules: grade.rules,
    stop_reason: outcome.stopReason,
    detail: outcome.detail,
    steps: outcome.steps,
    tokens_in: outcome.usage.inputTokens,
    tokens_out: outcome.usage.outputTokens,
    cache_read_tokens: outcome.usage.cacheReadTokens,
    cache_write_tokens: outcome.usage.cacheWriteTokens,
    tokens_estimated: outcome.usage.estimated === true,
    cost_usd: outcome.costUsd ?? null,
    cache_busts: outcome.cacheBusts,
    wall_s: Math.round((performance.now() - started) / 10) / 100,
    patch_lines: patch === "" ? 0 : patch.split("\n").length - 1,
    workspace: checkout.warning ? `copy (${checkout.warning})` : checkout.kind,
    grade: {
      outcome: grade.outcome,
      detail: grade.detail,
      patch_successfully_applied: grade.patch_successfully_applied,
      rejected: grade.rejected,
      tests_status: grade.tests_status,
    },
  };
  writeFileSync(join(options.out, "result.json"), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** The patch, and the changes it cannot carry; a workspace the host cannot read is a reason, not a crash. */
interface Submission {
  patch: string;
  uncarried: string[];
}

async function readSubmission(checkout: Checkout): Promise<Submission> {
  try {
    const { diff, uncarried } = await checkout.patch();
    return { patch: diff, uncarried: uncarried.map(describeUncarried) };
  } catch (err) {
    const why = (err as Error).message.split("\n")[0];
    return { patch: "", uncarried: [`the workspace's changes could not be read as a patch (${why})`] };
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

function taskMessage(task: Task): string {
  const lines = [`Fix this issue in the repository.`, "", "<issue>", task.issue.trim(), "</issue>", ""];
  lines.push(`The project's tests run with: ${task.testCommand.join(" ")}`);
  if (task.language === "typescript")
    lines.push('TypeScript files run with: node --import "$ACILAB_TSX" <file.ts>');
  return lines.join("\n");
}
