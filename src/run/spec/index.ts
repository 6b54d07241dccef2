export { codingOptions, cuaOptions, limitsOf, observeFor, toolsOptions } from "./kinds.js";
export {
  KIND_NAMES,
  RUN_DEFAULTS,
  RUN_SETTING_NAMES,
  RUN_SETTINGS,
  RUN_SETTINGS_SCHEMA,
  type RunSettingName,
  type RunSettings,
  type SettingDef,
  settingKinds,
} from "./settings.js";
export {
  type Actor,
  type AutoChoice,
  actorOf,
  actorSpec,
  canonicalJson,
  checkRunSettings,
  type ResolveOptions,
  RUN_SPEC_SCHEMA,
  type RunSpec,
  resolveRunSpec,
  runSpecHash,
  type SpecLimits,
} from "./spec.js";
