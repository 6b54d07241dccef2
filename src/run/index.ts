/**
 * The run contract: one composition root (runAnyTask) runs a task of any kind — coding, tool task,
 * computer use — and writes one result schema. Each kind supplies how its task starts, loops and
 * grades (RunnableTask); see docs/architecture.md for how to add one.
 */
export { type AnyRunTask, type RunTaskOptions, runAnyTask, runnableFor } from "./any-task.js";
export { type CodingOptions, type CodingRunResult, codingRun } from "./coding.js";
export { type CuaOptions, type CuaRunResult, cuaRun } from "./cua.js";
export {
  allInput,
  CORE_FIELDS,
  type GradeCore,
  type ResultCore,
  type ResultUsage,
  resultCore,
  TASK_KINDS,
  type TaskKind,
  wallSeconds,
} from "./result.js";
export {
  type KindEnd,
  type KindRunOptions,
  loopPolicy,
  makeActor,
  type ResolvedActor,
  type RunnableTask,
  runKind,
  type SharedRun,
} from "./root.js";
export {
  type Actor,
  type AutoChoice,
  actorOf,
  actorSpec,
  canonicalJson,
  checkRunSettings,
  codingOptions,
  cuaOptions,
  KIND_NAMES,
  limitsOf,
  observeFor,
  type ResolveOptions,
  RUN_DEFAULTS,
  RUN_SETTING_NAMES,
  RUN_SETTINGS,
  RUN_SETTINGS_SCHEMA,
  RUN_SPEC_SCHEMA,
  type RunSettingName,
  type RunSettings,
  type RunSpec,
  resolveRunSpec,
  runSpecHash,
  type SettingDef,
  type SpecLimits,
  settingKinds,
  toolsOptions,
} from "./spec/index.js";
export { compareActionFormats, type ToolsOptions, type ToolsRunResult, toolsRun } from "./tools.js";
export { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_TOKENS } from "./workspace-loop.js";

import type { CodingRunResult } from "./coding.js";
import type { CuaRunResult } from "./cua.js";
import type { ToolsRunResult } from "./tools.js";

/** result.json of any run: a switch on `kind` reaches each kind's own fields. */
export type RunResult = CodingRunResult | ToolsRunResult | CuaRunResult;
