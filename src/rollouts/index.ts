/**
 * Rollouts as training data: an experiment's done attempts as chat transcripts with source masks,
 * rewards from the hidden tests and group-relative advantages (docs/rollouts.md).
 */
export { type Conversation, ConversationError, conversationOf } from "./conversation.js";
export {
  type ExportOptions,
  type ExportSummary,
  exportRollouts,
  type SkippedAttempt,
  summaryText,
} from "./export.js";
export {
  failToPassFraction,
  type GroupStats,
  groupAdvantages,
  groupStats,
  REWARD_RULES,
  type RewardRule,
  type RewardSource,
  rewardOf,
} from "./rewards.js";
export {
  type ChatMessage,
  type ChatTool,
  ROLLOUT_FORMAT,
  type RolloutLine,
  RolloutLineSchema,
  rolloutJsonSchema,
} from "./schema.js";
export {
  loadTokenizer,
  RENDER,
  renderPieces,
  TIKTOKEN_PACKAGE,
  TOKENIZER_NAMES,
  type Tokenizer,
  TokenizerError,
  tokenize,
} from "./tokens.js";
