/**
 * Computer use: the loop, its action space, screen ↔ model scaling, the stall and repeat detectors,
 * the confirmation gate, screenshot history, the cost model and the scripted policy. Environments
 * live in ./env, the built-in tasks in ./tasks (each has its own index).
 */
export {
  CUA_TOOL_NAMES,
  type CuaToolName,
  cuaToolSpecs,
  describeAction,
  MAX_SCROLL_PX,
  MAX_TYPE_CHARS,
  MAX_WAIT_SECONDS,
  type ParsedAction,
  parseAction,
} from "./actions.js";
export { benchCuaOverhead, benchPerceptualDelta, type CuaBenchRow, cuaCostLines } from "./bench.js";
export { formatImageSize, IMAGE_SIZE_HELP, imageSizeCommand, imageSizeReport } from "./cli-image-size.js";
export {
  contextAfter,
  imageCostTable,
  type RunCost,
  type RunShape,
  SEED_002_PRICE,
  SEED_002_RUN,
  screenshotsRead,
  simulateRun,
  turnsUntilWindow,
} from "./cost.js";
export {
  type CuaLimits,
  type CuaOutcome,
  type CuaStopReason,
  type CuaTaskSpec,
  DEFAULT_CUA_LIMITS,
  type FrameAwarePolicy,
  type FrameRecord,
  isFrameAware,
  type PolicyFrame,
} from "./episode.js";
export {
  type ConfirmHook,
  type ConfirmRequest,
  DESTRUCTIVE_VOCABULARY,
  denyAll,
  destructiveMatch,
  gateClick,
  targetAt,
} from "./gate.js";
export {
  batchScreenshots,
  keepAllScreenshots,
  lastScreenshots,
  parseScreenshotHistory,
  type ScreenshotHistory,
} from "./history.js";
export { type CuaEpisode, runCuaEpisode } from "./loop.js";
export { formatElements, screenText, wrapScreenText } from "./observation.js";
export { DECODE_ONCE_CODEC, type FrameCodec, IMAGE_HELPERS_CODEC } from "./perceive.js";
export type { CuaTurnDetail, CuaTurnRecord } from "./records.js";
export {
  checkModelPoint,
  clickMapping,
  imageTokens,
  modelImageSize,
  parseSize,
  parseTier,
  TIERS,
  type TierName,
  toModel,
  toScreen,
  type VisionTier,
} from "./scaling.js";
export {
  type CuaPoint,
  type CuaTarget,
  estimateCuaUsage,
  type ScriptedCuaOptions,
  ScriptedCuaPolicy,
  type ScriptedCuaStep,
} from "./scripted.js";
export { CUA_SYSTEM_PROMPT } from "./session.js";
export {
  actionHash,
  greyThumbnail,
  NO_CHANGE_BELOW,
  perceptualDelta,
  RepeatDetector,
  STALL_HALT_AT,
  STALL_WARN_AT,
  StallDetector,
} from "./stall.js";
export type * from "./types.js";
export { NoAccessibilityTreeError } from "./types.js";
