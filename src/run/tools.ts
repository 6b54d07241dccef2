/**
 * Tool tasks as a run kind (Acme and friends): a fresh world with its own tools → the agent loop, whose
 * programs (code actions) run in a sandbox over an empty private folder → the task's grader reads the
 * final state, never the path.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseHistorySpec } from "../history/index.js";
import { DEFAULT_LIMITS, type Limits } from "../loop/index.js";
import { makePolicy } from "../policies/index.js";
import { type BackendChoice, defaultBackend, openSandbox } from "../sandbox/index.js";
import type { ToolsGrade, ToolsTask } from "../tasks/index.js";
import {
  ACTION_FORMATS,
  type ActionFormat,
  type PermissionHook,
  ToolRegistry,
  toolsForFormat,
} from "../tools/index.js";
import type { ActionRecord, TrajectorySink } from "../trajectory/index.js";
import type { ResultCore } from "./result.js";
import { type KindEnd, type KindRunOptions, type RunnableTask, runKind, type SharedRun } from "./root.js";
import { runWorkspaceLoop } from "./workspace-loop.js";

export interface ToolsOptions {
  actionFormat: ActionFormat;
  history?: string;
  limits?: Partial<Limits>;
  commandTimeoutMs?: number;
  /** Sandbox backend for the programs of code actions (default: ACILAB_SANDBOX, else auto). */
  sandbox?: BackendChoice;
  /** Hosts those programs may reach through the sandbox's proxy; empty = no network. */
  allowNet?: readonly string[];
  /** Asked at the moment of every call, JSON or from inside a program. */
  permission?: PermissionHook;
}

/** result.json of a tool task: the common fields, then how it ran and which tools it called. */
export type ToolsRunResult = ResultCore<"tools", ToolsGrade> & {
  action_format: ActionFormat;
  sandbox: string;
  /** Set when programs ran with weaker isolation than the bwrap backend, and why. */
  sandbox_warning: string | null;
  /** "none", or the hosts the programs were allowed to reach. */
  network: "none" | { allow: string[] };
  /** Calls of the task's tools, made directly or from inside programs (run_code and submit not counted). */
  tool_calls: number;
  tool_calls_by_name: Record<string, number>;
};

export function toolsRun(task: ToolsTask, options: ToolsOptions): RunnableTask<ToolsRunResult> {
  return {
    kind: "tools",
    id: task.id,
    takesWorkflow: false,
    scripted: (file) =>
      file === undefined ? task.referencePolicy(options.actionFormat) : makePolicy(`scripted:${file}`),
    execute: (run) => executeTools(task, options, run),
  };
}

async function executeTools(
  task: ToolsTask,
  options: ToolsOptions,
  run: SharedRun,
): Promise<KindEnd<ToolsRunResult>> {
  const { actionFormat } = options;
  const episode = task.start();
  const registry = new ToolRegistry(toolsForFormat(actionFormat, episode.tools));
  const history = parseHistorySpec(options.history ?? "all");
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const allowNet = options.allowNet ?? [];
  const root = realpathSync(mkdtempSync(join(tmpdir(), `acilab-${task.id}-`)));
  const { sandbox, warning } = await openSandbox({
    workspace: root,
    backend: options.sandbox ?? defaultBackend(),
    ...(allowNet.length > 0 ? { network: { allow: [...allowNet] } } : {}),
  }).catch((err) => {
    rmSync(root, { recursive: true, force: true });
    throw err;
  });
  const counted = new Set(episode.tools.filter((t) => t.kind !== "control").map((t) => t.name));
  const calls: Record<string, number> = {};
  const trajectory: TrajectorySink = {
    write(record) {
      run.trajectory.write(record);
      if (record.type === "turn") countCalls(record.actions, counted, calls);
    },
  };
  const onAbort = () => void sandbox.close();
  run.signal?.addEventListener("abort", onAbort, { once: true });
  let loop: KindEnd<ToolsRunResult>["loop"];
  try {
    const outcome = await runWorkspaceLoop(run, {
      task: task.id,
      toolsLabel: `${task.id} (${actionFormat})`,
      registry,
      workspace: { root, sandbox, testCommand: undefined },
      history,
      limits,
      system: task.system,
      memory: "",
      prompt: task.prompt,
      trajectory,
      ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
      ...(options.permission ? { permission: options.permission } : {}),
    });
    loop = outcome;
  } finally {
    run.signal?.removeEventListener("abort", onAbort);
    await sandbox.close();
    rmSync(root, { recursive: true, force: true });
  }
  return {
    loop,
    grade: episode.grade(),
    extras: {
      action_format: actionFormat,
      sandbox: sandbox.backend,
      sandbox_warning: warning ?? null,
      network: allowNet.length === 0 ? "none" : { allow: [...allowNet] },
      tool_calls: Object.values(calls).reduce((a, b) => a + b, 0),
      tool_calls_by_name: calls,
    },
  };
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

/** Both action formats on the same task, one after the other, each in its own folder under `out`. */
export async function compareActionFormats(
  task: ToolsTask,
  options: Omit<ToolsOptions, "actionFormat">,
  run: KindRunOptions,
): Promise<ToolsRunResult[]> {
  const results: ToolsRunResult[] = [];
  for (const actionFormat of ACTION_FORMATS) {
    if (run.signal?.aborted) break;
    const out = run.out ? join(run.out, actionFormat) : undefined;
    results.push(
      await runKind(toolsRun(task, { ...options, actionFormat }), { ...run, ...(out ? { out } : {}) }),
    );
  }
  return results;
}
