/**
 * Computer use on the shared agent loop: its actions as registry tools, the confirmation gate as their
 * permission hook, the screen as the loop's observer, screen ↔ model scaling, the stall and repeat
 * detectors, screenshot history, the cost model and the scripted policy. Environments
 * live in ./env, the built-in tasks in ./tasks (each has its own index).
 */
export {
  CUA_ACTIONS,
  CUA_TOOL_NAMES,
  type CuaToolName,
  describeAction,
  MAX_SCROLL_PX,
  MAX_TYPE_CHARS,
  MAX_WAIT_SECONDS,
} from "./actions.js";
export { type KeyEffect, keyEffect, type Reach, reachOfKeys, typedEffect } from "./activation.js";
export {
  contextAfter,
  EXAMPLE_PRICE,
  EXAMPLE_RUN,
  imageCostTable,
  type RunCost,
  type RunShape,
  screenshotsRead,
  simulateRun,
  turnsUntilWindow,
} from "./cost.js";
export {
  type BrowserSource,
  type BrowserStartup,
  browserBoxChecks,
  CHROMIUM_PATH,
  createEnvironment,
  DEFAULT_SCREEN,
  type DownloadRecord,
  type InspectableEnvironment,
  type PageEvents,
  type PageGuardOptions,
  parseRequestRule,
  parseRequestRules,
  RENDERER_HEAP_MB,
  refuseRequests,
  SharedBrowser,
} from "./env/index.js";
export {
  type CuaOutcome,
  type CuaTaskSpec,
  type FrameAwarePolicy,
  type FrameRecord,
  isFrameAware,
  type PolicyFrame,
} from "./episode.js";
export {
  type ConfirmationGate,
  type ConfirmHook,
  type ConfirmRequest,
  confirmationGate,
  DESTRUCTIVE_VOCABULARY,
  denyAll,
  destructiveMatch,
  GATE_NEAR_PX,
  type GateRefusal,
  type RequestRefusal,
  targetAt,
  type UnreadableHook,
  type UnreadableRefusal,
} from "./gate.js";
export {
  batchScreenshots,
  keepAllScreenshots,
  lastScreenshots,
  parseScreenshotHistory,
} from "./history.js";
export {
  CUA_MAX_OUTPUT_TOKENS,
  CUA_SYSTEM_PROMPT,
  type CuaEpisode,
  DEFAULT_SETTLE_MS,
  notStarted,
  runCuaEpisode,
} from "./loop.js";
export { formatElements, screenText, wrapScreenText } from "./observation.js";
export { ScreenObserver, type ScreenObserverOptions, type StopCheck } from "./observer.js";
export { DECODE_ONCE_CODEC, type FrameCodec, IMAGE_HELPERS_CODEC } from "./perceive.js";
export type { CuaTurnDetail, CuaTurnRecord } from "./records.js";
export {
  checkModelPoint,
  clickMapping,
  imageTokens,
  modelImageSize,
  PATCH_PX,
  parseScreen,
  parseSize,
  parseTier,
  SCREEN_MAX_SIDE,
  SCREEN_MIN_SIDE,
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
export { type CuaStage, type OpenStage, startFailure } from "./stage.js";
export {
  actionHash,
  greyThumbnail,
  NO_CHANGE_BELOW,
  perceptualDelta,
  RepeatDetector,
  SAMPLE_STEP,
  STALL_HALT_AT,
  STALL_WARN_AT,
  StallDetector,
  THUMBNAIL_SIDE,
} from "./stall.js";
export {
  DEFAULT_MINIWOB_SEED,
  describeTaskFile,
  findMiniwobCheckout,
  isTaskFile,
  loadTaskFile,
  loadTaskFiles,
  loadTaskFolder,
  looksLikeTaskPath,
  parseTaskFile,
  READY_TIMEOUT_MS,
  type StartAppOptions,
  startApp,
  TASK_FILE_NAME,
  type TaskFile,
  TaskFileError,
  type TaskFileGrade,
  taskFileScripted,
  taskFileStage,
  writeMiniwobTasks,
} from "./taskfile/index.js";
export {
  type AppState,
  builtinStage,
  type CuaTask,
  contactSheet,
  cuaScriptedPolicy,
  describeCuaTask,
  frameCaptions,
  type Grade,
  getCuaTask,
  LabelledEnvironment,
  listCuaTasks,
  startTaskEpisode,
  type TaskDefence,
} from "./tasks/index.js";
export { type CuaToolContext, cuaTools, type FrameView, type ScreenStep } from "./tools.js";
export type * from "./types.js";
export {
  NoAccessibilityTreeError,
  type PageHazard,
  PageHazardError,
  type PageHazardKind,
} from "./types.js";
