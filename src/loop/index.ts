export { type AgentRun, runAgent } from "./agent.js";
export { ChangeTracker } from "./changes.js";
export { limitReached, usageOf } from "./limits.js";
export { runEndRecord, runStartRecord, turnRecord } from "./records.js";
export {
  DEFAULT_CUA_LIMITS,
  DEFAULT_LIMITS,
  type Limits,
  limitsFrom,
  type Observation,
  type RunObserver,
  type RunOutcome,
  STOP_REASONS,
  type StopReason,
  type TurnObservation,
} from "./types.js";
