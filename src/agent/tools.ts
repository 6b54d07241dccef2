/**
 * The tools `acilab agent` offers: the full-shell interface of task runs (search, the viewer, string
 * edits, a shell) without `submit` and `run_tests` — a conversation ends with an answer, and the
 * user's repository has no task test command — plus the harness's own: the plan, a read-only
 * subagent, and the repo map.
 */
import { createRepoMapTool, createTaskTool, createTodoTool, type TodoItem } from "../harness/index.js";
import type { Ledger } from "../ledger/index.js";
import type { Policy } from "../policies/index.js";
import { type AnyTool, toolset } from "../tools/index.js";

/** What a task run needs and a conversation does not. */
const TASK_ONLY = new Set(["submit", "run_tests"]);

export interface AgentToolOptions {
  policy: Policy;
  ledger: Ledger;
  memory: string;
  /** Where subagents' trajectories go. */
  subagentDir: string;
  onTodos(items: readonly TodoItem[]): void;
  /** Where the repo map keeps its per-file tags between sessions. */
  repoMapCache?: string;
  repoMap: boolean;
}

export function agentTools(o: AgentToolOptions): AnyTool[] {
  const base: AnyTool[] = toolset("full-shell").tools.filter((t) => !TASK_ONLY.has(t.name));
  const own: AnyTool[] = [createTodoTool({ onChange: o.onTodos })];
  if (o.repoMap) own.push(createRepoMapTool(o.repoMapCache ? { cacheDir: o.repoMapCache } : {}));
  const readable = [...base, ...own];
  // The subagent reads with the same read tools (the repo map included), never `task` itself.
  const task = createTaskTool({
    policy: o.policy,
    ledger: o.ledger,
    tools: readable,
    trajectoryDir: o.subagentDir,
    memory: o.memory,
  });
  return [...readable, task];
}
