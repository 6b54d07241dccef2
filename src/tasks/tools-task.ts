import type { Policy } from "../policies/index.js";
import type { ActionFormat, ToolDefinition } from "../tools/index.js";
import { acmeTask } from "./acme/index.js";
import { loadTask, type Task } from "./task.js";

/**
 * A task that is not a repository: the agent works through the task's own tools (an API, a database)
 * and submits an answer; the grader checks the final state. The Acme task (src/tasks/acme) is the example.
 */
export interface ToolsTask {
  kind: "tools";
  id: string;
  title: string;
  /** The system prompt (stable prefix), the same for every action format. */
  system: string;
  /** The user's request: the first message. */
  prompt: string;
  /** A fresh world for one run: its tools (a `submit` that takes the answer among them) and its grader. */
  start(): ToolsEpisode;
  /** The hand-written policy that plain `--policy scripted` runs, per action format. */
  referencePolicy(format: ActionFormat): Policy;
}

export interface ToolsEpisode {
  tools: ToolDefinition[];
  /** Checks the final state (the submitted answer, what the tools changed), never the path. */
  grade(): ToolsGrade;
}

export interface ToolsGrade {
  resolved: boolean;
  /** What the agent submitted; null when it never did. */
  answer: string | null;
  /** One sentence: what was expected and what was found. */
  detail: string;
}

/** Tool tasks built into acilab, by id; they live in code because their worlds are code. */
export const TOOLS_TASKS: Readonly<Record<string, ToolsTask>> = { acme: acmeTask };

export type AnyTask = Task | ToolsTask;

/** A built-in tools task by id, else a repository task (built-in id or folder) as `loadTask` finds it. */
export function resolveTask(idOrPath: string): AnyTask {
  return TOOLS_TASKS[idOrPath] ?? loadTask(idOrPath);
}
