export { type AgentRun, runAgent } from "./agent.js";
export { ChangeTracker } from "./changes.js";
export {
  COMPACT_AGENT,
  type CompactionOptions,
  type CompactionResult,
  type CompactionTarget,
  type CompactionTrigger,
  clearOldResults,
  compactNow,
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_KEEP_RECENT,
  SUMMARY_KEEP_TURNS,
  summaryCut,
} from "./compaction.js";
export { limitReached, usageOf } from "./limits.js";
export { runEndRecord, runStartRecord, turnRecord } from "./records.js";
export {
  DEFAULT_CUA_LIMITS,
  DEFAULT_LIMITS,
  type Limits,
  limitsFrom,
  type Observation,
  ObserverStop,
  type RunObserver,
  type RunOutcome,
  STOP_REASONS,
  type StopReason,
  type TurnObservation,
} from "./types.js";
