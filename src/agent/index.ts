export { ApplyConflict, applyToTree, type SessionChanges, sessionChanges } from "./apply.js";
export { type Checkpoint, CheckpointError, Checkpoints } from "./checkpoints.js";
export { Conversation, type ConversationOptions, PromptBlocked, type TurnResult } from "./conversation.js";
export { type AgentEvents, type Approval, type ApprovalRequest, QUIET_EVENTS } from "./events.js";
export { describeCall, makeGate } from "./gate.js";
export { EXIT, HeadlessEvents, OUTPUT_FORMATS, type OutputFormat, resultObject } from "./headless.js";
export { defaultStateDir, Session, SessionError, SessionStore } from "./sessions.js";
export { type AgentWorkspace, checkRepo, openAgentWorkspace, RepoError } from "./workspace.js";
