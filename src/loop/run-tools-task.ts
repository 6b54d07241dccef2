import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseHistorySpec } from "../history/index.js";
import { Ledger } from "../ledger/index.js";
import { makePolicy } from "../policies/index.js";
import { openSandbox } from "../sandbox/index.js";
import type { ToolsTask } from "../tasks/index.js";
import { defaultBackend } from "../tasks/index.js";
import { ACTION_FORMATS, type ActionFormat, toolsForFormat } from "../tools/code/index.js";
import { ToolRegistry } from "../tools/registry.js";
import { newEditorState, type PermissionHook } from "../tools/types.js";
import { type ActionRecord, type TrajectorySink, TrajectoryWriter } from "../trajectory/index.js";
import { runAgent } from "./agent.js";
import { runEndRecord, runStartRecord } from "./records.js";
import { DEFAULT_COMMAND_TIMEOUT_MS, FREE_POLICIES } from "./run-task.js";
import { DEFAULT_LIMITS, type Limits, type RunOutcome, type StopReason } from "./types.js";

export interface RunToolsTaskOptions {
  task: ToolsTask;
  /** A policy spec; plain "scripted" runs the task's own policy for the action format. */
  policySpec: string;
  actionFormat: ActionFormat;
  history?: string;
  /** Where to write trajectory.jsonl and result.json; nothing is written without it. */
  out?: string;
  limits?: Partial<Limits>;
  commandTimeoutMs?: number;
  /** Asked at the moment of every call, JSON or from inside a program. */
  permission?: PermissionHook;
  signal?: AbortSignal;
}

/** result.json of a tools task: what the run did, what it answered and whether that was right. */
export interface ToolsRunResult {
  task: string;
  policy: string;
  action_format: ActionFormat;
  sandbox: string;
  resolved: boolean;
  answer: string | null;
  grade_detail: string;
  stop_reason: StopReason;
  detail: string;
  /** Turns: model calls. */
  steps: number;
  /** Calls of the task's tools, made directly or from inside programs (run_code and submit not counted). */
  tool_calls: number;
  tool_calls_by_name: Record<string, number>;
  tokens_in: number;
  tokens_out: number;
  tokens_estimated: boolean;
  cost_usd: number | null;
  wall_s: number;
}

/**
 * One tools task end to end: a fresh world → the agent loop (programs run in a sandbox whose
 * workspace is an empty private folder) → the task's grader reads the final state.
 */
export async function runToolsTask(options: RunToolsTaskOptions): Promise<ToolsRunResult> {
  const { task, actionFormat } = options;
  const episode = task.start();
  const registry = new ToolRegistry(toolsForFormat(actionFormat, episode.tools));
  const policy =
    options.policySpec === "scripted" ? task.referencePolicy(actionFormat) : makePolicy(options.policySpec);
  const history = parseHistorySpec(options.history ?? "all");
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const root = realpathSync(mkdtempSync(join(tmpdir(), `acilab-${task.id}-`)));
  const { sandbox } = await openSandbox({ workspace: root, backend: defaultBackend() });
  if (options.out) mkdirSync(options.out, { recursive: true });
  const file = options.out ? new TrajectoryWriter(join(options.out, "trajectory.jsonl")) : undefined;
  const counted = new Set(episode.tools.filter((t) => t.kind !== "control").map((t) => t.name));
  const calls: Record<string, number> = {};
  const sink: TrajectorySink = {
    write(record) {
      file?.write(record);
      if (record.type === "turn") countCalls(record.actions, counted, calls);
    },
  };
  const onAbort = () => void sandbox.close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const started = performance.now();
  let outcome: RunOutcome;
  try {
    sink.write(
      runStartRecord({
        runId: `${task.id}-${actionFormat}-${Date.now().toString(36)}`,
        task: task.id,
        policy: policy.spec,
        tools: `${task.id} (${actionFormat})`,
        history: history.name,
        limits,
        system: task.system,
        memory: "",
        toolSpecs: registry.specs(),
      }),
    );
    outcome = await runAgent({
      policy,
      tools: registry,
      context: {
        root,
        sandbox,
        editor: newEditorState(),
        testCommand: undefined,
        commandTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        ...(options.permission ? { permission: options.permission } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      history,
      limits,
      ledger: new Ledger({ prices: FREE_POLICIES }),
      trajectory: sink,
      system: task.system,
      memory: "",
      task: task.prompt,
      maxOutputTokens: 8192,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    sink.write(runEndRecord(outcome));
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    file?.close();
    await sandbox.close();
    rmSync(root, { recursive: true, force: true });
  }
  const grade = episode.grade();
  const result: ToolsRunResult = {
    task: task.id,
    policy: policy.spec,
    action_format: actionFormat,
    sandbox: sandbox.backend,
    resolved: grade.resolved,
    answer: grade.answer,
    grade_detail: grade.detail,
    stop_reason: outcome.stopReason,
    detail: outcome.detail,
    steps: outcome.steps,
    tool_calls: Object.values(calls).reduce((a, b) => a + b, 0),
    tool_calls_by_name: calls,
    tokens_in: outcome.usage.inputTokens + outcome.usage.cacheReadTokens + outcome.usage.cacheWriteTokens,
    tokens_out: outcome.usage.outputTokens,
    tokens_estimated: outcome.usage.estimated === true,
    cost_usd: outcome.costUsd ?? null,
    wall_s: Math.round((performance.now() - started) / 10) / 100,
  };
  if (options.out) writeFileSync(join(options.out, "result.json"), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** Both action formats on the same task, one after the other (seed 000's comparison). */
export async function compareActionFormats(
  options: Omit<RunToolsTaskOptions, "actionFormat">,
): Promise<ToolsRunResult[]> {
  const results: ToolsRunResult[] = [];
  for (const actionFormat of ACTION_FORMATS) {
    if (options.signal?.aborted) break;
    const out = options.out ? join(options.out, actionFormat) : undefined;
    results.push(await runToolsTask({ ...options, actionFormat, ...(out ? { out } : {}) }));
  }
  return results;
}

/** Count calls of the task's tools: the nested calls of a program, or a direct call. */
function countCalls(
  actions: readonly ActionRecord[],
  counted: Set<string>,
  into: Record<string, number>,
): void {
  for (const action of actions) {
    const names = action.calls ? action.calls.map((c) => c.tool) : [action.call.name];
    for (const name of names) if (counted.has(name)) into[name] = (into[name] ?? 0) + 1;
  }
}
