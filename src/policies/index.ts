export {
  AGENTLESS_SPEC_USE,
  type AgentlessSettings,
  DEFAULT_AGENTLESS_K,
  DEFAULT_AGENTLESS_TEMPERATURE,
} from "./agentless-spec.js";
export { AnthropicPolicy, type AnthropicPolicyOptions } from "./anthropic.js";
export { OpenAIPolicy, type OpenAIPolicyOptions } from "./openai.js";
export { ReplayPolicy } from "./replay.js";
export { estimateUsage, loadScript, ScriptedPolicy, ScriptFile } from "./scripted.js";
export {
  type ModelSpec,
  makePolicy,
  POLICY_SPEC_HELP,
  type PolicyContext,
  type PolicySpec,
  parsePolicySpec,
  resolveAutoPolicy,
} from "./spec.js";
export {
  type Policy,
  PolicyError,
  type PolicyErrorKind,
  type PolicyReply,
  type PolicyRequest,
  type ToolSpec,
} from "./types.js";
