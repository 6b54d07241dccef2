export { defaultConfigDir } from "./config-dir.js";
export { contextWindowOf, DEFAULT_CONTEXT_TOKENS } from "./context-window.js";
export { describeCall, type GateOptions, type HookVerdict, makeGate } from "./gate.js";
export {
  CLOSE_GRACE_MS,
  type HookProcessResult,
  MAX_HOOK_OUTPUT_BYTES,
  runHookProcess,
} from "./hook-process.js";
export {
  combineOutcomes,
  createHookRunner,
  type HookRunnerOptions,
  hookCount,
  hookMatches,
  interpretHook,
} from "./hooks.js";
export { jsonErrorPosition, positionAt, type TextPosition } from "./json-position.js";
export {
  type LoadedMemory,
  loadMemoryFiles,
  MAX_IMPORT_DEPTH,
  MEMORY_FILE_MAX_BYTES,
  MEMORY_FILES,
  type MemoryFile,
  type MemoryOptions,
} from "./memory.js";
export { anchorOf, pathMatches } from "./path-patterns.js";
export { permissionRules } from "./permission-rules.js";
export { preCompactHook } from "./pre-compact.js";
export { createRepoMapTool, REPO_MAP_MAX_TOKENS, type RepoMapToolOptions } from "./repo-map-tool.js";
export {
  type DecideInput,
  decide,
  type ParsedRule,
  PERMISSION_MODES,
  type PermissionMode,
  parseRule,
  type Rule,
  RuleSyntaxError,
  ruleMatches,
  type Scope,
} from "./rules.js";
export {
  DEFAULT_HOOK_TIMEOUT_S,
  type HookSpec,
  type LoadSettingsOptions,
  loadSettings,
  mergeSettings,
  parseSettings,
  projectRootOf,
  type Settings,
  type SettingsPart,
  untrustedNotice,
} from "./settings.js";
export { SettingsError } from "./settings-schema.js";
export { type Segment, splitCommand } from "./shell-split.js";
export { createTaskTool, SUBAGENT_MAX_STEPS, type SubagentOptions, subagentTools } from "./subagent.js";
export {
  REPO_MAP_CHOICES,
  type RepoMapChoice,
  type TaskHarness,
  type TaskHarnessChoice,
  taskHarness,
} from "./task-run.js";
export { createTodoTool, MAX_TODOS, renderTodos, type TodoToolOptions } from "./todo.js";
export {
  type AfterCall,
  type HookPayload,
  preToolUse,
  withAfterCall,
  withPostToolUse,
} from "./tool-hooks.js";
export {
  ACILAB_TOOL_NAME,
  acilabToolsFor,
  CLAUDE_TOOLS,
  type ClaudeCall,
  claudeAlias,
  claudeAliases,
  claudeCall,
  isClaudeTool,
} from "./tool-names.js";
export { TrustStore, TrustStoreError } from "./trust.js";
export {
  type Approval,
  type ApprovalRequest,
  type Behavior,
  HOOK_EVENTS,
  type HookEvent,
  type HookOutcome,
  NO_HOOKS,
  type RuleDecision,
  type RunHooks,
  type TodoItem,
} from "./types.js";
