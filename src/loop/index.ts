export { type AgentRun, runAgent } from "./agent.js";
export { loadMemory, MEMORY_FILE_MAX_BYTES } from "./memory.js";
export { runEndRecord } from "./records.js";
export { DEFAULT_COMMAND_TIMEOUT_MS, type RunResult, type RunTaskOptions, runTask } from "./run-task.js";
export {
  compareActionFormats,
  type RunToolsTaskOptions,
  runToolsTask,
  type ToolsRunResult,
} from "./run-tools-task.js";
export { DEFAULT_LIMITS, type Limits, type RunOutcome, type StopReason } from "./types.js";
