export { defaultConfigDir } from "./config-dir.js";
export {
  type LoadedMemory,
  loadMemoryFiles,
  MAX_IMPORT_DEPTH,
  MEMORY_FILE_MAX_BYTES,
  MEMORY_FILES,
  type MemoryFile,
  type MemoryOptions,
} from "./memory.js";
export { preCompactHook } from "./pre-compact.js";
export { createTaskTool, SUBAGENT_MAX_STEPS, type SubagentOptions, subagentTools } from "./subagent.js";
export { createTodoTool, MAX_TODOS, renderTodos, type TodoToolOptions } from "./todo.js";
export {
  type Behavior,
  HOOK_EVENTS,
  type HookEvent,
  type HookOutcome,
  NO_HOOKS,
  type RuleDecision,
  type RunHooks,
  type TodoItem,
} from "./types.js";
