export { ensureLayer, INSTALL_TIMEOUT_MS, type LayerRequest } from "./build.js";
export { EnvBuildError, EnvironmentUnavailable } from "./build-errors.js";
export {
  autoEnvironment,
  type DetectedEnvironment,
  detectPythonEnvironment,
  type ReadRepoFile,
} from "./detect.js";
export { type Interpreter, resolveInterpreter } from "./interpreter.js";
export { type EnvMount, layerMount } from "./mount.js";
export { machineNpmSources, NPM_REGISTRY, parseNpmrc, sandboxNpm, specNpmSources } from "./npm-sources.js";
export {
  decideMissing,
  type MissingRequirement,
  missingRequirement,
  nearestVersion,
  type PinDecision,
  packageName,
  pinnedVersion,
} from "./pins.js";
export { ENV_MOUNT, type RuntimePlan, runtimePlan } from "./runtime.js";
export { machinePipSources, type PipSources, parsePipConfig, sandboxPip, specSources } from "./sources.js";
export {
  BUILD_LOG,
  ENV_DIR_ENV,
  envStoreDir,
  type Layer,
  type LayerManifest,
  layerDamage,
  listLayers,
  removeLayer,
  staleBuilds,
} from "./store.js";
