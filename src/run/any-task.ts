/**
 * `runAnyTask(spec, task)`: a RunSpec and a task of any kind → the kind that runs it, through the
 * one composition root. The CLI, experiments, `suite` and workers all start runs here.
 */
import type { BrowserSource, CuaTask, TaskFile } from "../cua/index.js";
import type { Task, ToolsTask } from "../tasks/index.js";
import { type CodingRunResult, codingRun } from "./coding.js";
import { type CuaRunResult, cuaRun } from "./cua.js";
import { type KindRunOptions, type RunnableTask, runKind } from "./root.js";
import { codingOptions, cuaOptions, type RunSpec, toolsOptions } from "./spec/index.js";
import { type ToolsRunResult, toolsRun } from "./tools.js";

/** A task of any kind, as the task areas load it. */
export type AnyRunTask = Task | ToolsTask | CuaTask | TaskFile;

export type AnyRunResult = CodingRunResult | ToolsRunResult | CuaRunResult;

export type RunTaskOptions = Omit<KindRunOptions, "actor"> & {
  /** Computer use: a browser kept across a folder's episodes (a fresh context each); default its own. */
  browsers?: BrowserSource;
};

/** The kind that runs `task` under `spec`. */
export function runnableFor(
  spec: RunSpec,
  task: AnyRunTask,
  browsers?: BrowserSource,
): RunnableTask<AnyRunResult> {
  if (!("kind" in task))
    return cuaRun(task, { ...cuaOptions(spec, task), ...(browsers ? { browsers } : {}) });
  if (task.kind === "tools") return toolsRun(task, toolsOptions(spec));
  return codingRun(task, codingOptions(spec));
}

export function runAnyTask(spec: RunSpec, task: Task, options?: RunTaskOptions): Promise<CodingRunResult>;
export function runAnyTask(spec: RunSpec, task: ToolsTask, options?: RunTaskOptions): Promise<ToolsRunResult>;
export function runAnyTask(
  spec: RunSpec,
  task: CuaTask | TaskFile,
  options?: RunTaskOptions,
): Promise<CuaRunResult>;
export function runAnyTask(spec: RunSpec, task: AnyRunTask, options?: RunTaskOptions): Promise<AnyRunResult>;
export function runAnyTask(
  spec: RunSpec,
  task: AnyRunTask,
  options: RunTaskOptions = {},
): Promise<AnyRunResult> {
  const { browsers, ...rest } = options;
  return runKind(runnableFor(spec, task, browsers), { ...rest, actor: spec.actor });
}
