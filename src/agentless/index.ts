/**
 * The Agentless workflow (`--policy agentless:…`): localise, repair, validate, vote — a fixed pipeline
 * whose every model call goes through a real adapter. A coding run uses it in place of the agent loop.
 */

export { STAGES as AGENTLESS_STAGES, type Stage as AgentlessStage } from "./prompts.js";
export { AGENTLESS_CHAIN } from "./validate.js";
export {
  AGENTLESS_MAX_OUTPUT_TOKENS,
  type AgentlessActor,
  type AgentlessRun,
  runAgentless,
} from "./workflow.js";
