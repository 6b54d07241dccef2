export { ApplyConflict, applyToTree, type SessionChanges, sessionChanges } from "./apply.js";
export { type Checkpoint, CheckpointError, Checkpoints } from "./checkpoints.js";
export { Conversation, type ConversationOptions, PromptBlocked, type TurnResult } from "./conversation.js";
export { type AgentEvents, QUIET_EVENTS } from "./events.js";
export { EXIT, HeadlessEvents, OUTPUT_FORMATS, type OutputFormat, resultObject } from "./headless.js";
export { printTurn } from "./print.js";
export { REPL_HELP, Repl } from "./repl.js";
export { defaultStateDir, Session, SessionError, SessionStore } from "./sessions.js";
export {
  type AgentStart,
  type AgentStartOptions,
  agentPolicy,
  type SessionChoice,
  startAgent,
} from "./start.js";
export { TerminalEvents } from "./terminal.js";
export { type AgentWorkspace, checkRepo, openAgentWorkspace, RepoError } from "./workspace.js";
