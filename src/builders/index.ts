export { splitTests } from "./assemble.js";
export {
  detectRepo,
  detectTestSetup,
  NoTestCommandError,
  type TestCommandOverride,
  type TestSetup,
} from "./detect.js";
export { type ChangeKind, KIND_CHOICES, type KindChoice } from "./feature.js";
export { leak, patchSecrets, problemStatement } from "./issue.js";
export {
  type BuildReport,
  type CandidateOutcome,
  DEFAULT_MAX_COMMITS,
  DEFAULT_MAX_SRC_LINES,
  MIRROR_BASES,
  type MirrorBase,
  type MirrorOptions,
  mirror,
} from "./mirror.js";
export { candidatesLogFor } from "./mirror-output.js";
export { type Mutation, type MutationKind, mutationSites } from "./mutate.js";
export { DEFAULT_SYNTH_MAX, type SynthOptions, seededRandom, synth } from "./synth.js";
export { type InstanceRun, runInstance } from "./verify.js";
