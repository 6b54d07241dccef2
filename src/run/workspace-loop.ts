/**
 * The loop as coding runs and tool tasks drive it: tools over a sandboxed workspace, the run's
 * records around it (run_start before the first turn, run_end after the last). The kinds differ only
 * in what they hand in: the tools, the workspace and its test command, the prompts.
 */
import type { HistoryProcessor } from "../history/index.js";
import { type Limits, type RunOutcome, runAgent, runEndRecord, runStartRecord } from "../loop/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { newEditorState, type PermissionHook, type ToolRegistry } from "../tools/index.js";
import type { TrajectorySink } from "../trajectory/index.js";
import { loopPolicy, type SharedRun } from "./root.js";

/** mini-SWE-agent's SWE-bench setting is 60 s a command; our tasks' suites take seconds. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

/** Output tokens per reply: a coding turn writes a file or a patch at most. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

export interface WorkspaceLoop {
  task: string;
  /** The tool set's name as the trajectory records it (`full`, `acme (code)`). */
  toolsLabel: string;
  registry: ToolRegistry;
  workspace: { root: string; gitDir?: string; sandbox: Sandbox; testCommand: string[] | undefined };
  history: HistoryProcessor;
  limits: Limits;
  system: string;
  memory: string;
  /** The opening message. */
  prompt: string;
  commandTimeoutMs?: number;
  maxOutputTokens?: number;
  permission?: PermissionHook;
  /** Where turns go (default: the run's trajectory; a kind may tee them). */
  trajectory?: TrajectorySink;
}

export async function runWorkspaceLoop(run: SharedRun, loop: WorkspaceLoop): Promise<RunOutcome> {
  const trajectory = loop.trajectory ?? run.trajectory;
  const policy = loopPolicy(run);
  trajectory.write(
    runStartRecord({
      runId: run.runId,
      task: loop.task,
      policy: policy.spec,
      tools: loop.toolsLabel,
      history: loop.history.name,
      limits: loop.limits,
      system: loop.system,
      memory: loop.memory,
      toolSpecs: loop.registry.specs(),
    }),
  );
  const { root, gitDir, sandbox, testCommand } = loop.workspace;
  const outcome = await runAgent({
    policy,
    tools: loop.registry,
    context: {
      root,
      ...(gitDir ? { gitDir } : {}),
      sandbox,
      editor: newEditorState(),
      testCommand,
      commandTimeoutMs: loop.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      ...(loop.permission ? { permission: loop.permission } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    },
    history: loop.history,
    limits: loop.limits,
    ledger: run.ledger,
    trajectory,
    system: loop.system,
    memory: loop.memory,
    task: loop.prompt,
    maxOutputTokens: loop.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    ...(run.signal ? { signal: run.signal } : {}),
  });
  trajectory.write(runEndRecord(outcome));
  return outcome;
}
