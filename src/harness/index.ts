export { createRepoMapTool, REPO_MAP_MAX_TOKENS, type RepoMapToolOptions } from "./repo-map-tool.js";
export { createTaskTool, SUBAGENT_MAX_STEPS, type SubagentOptions, subagentTools } from "./subagent.js";
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
