/**
 * Experiments: a file of arms (run settings) × tasks × repeats, checked and resolved into a plan.
 * `loadExperiment` is the whole surface a run needs; the rest is for messages and tests.
 */

export { impossibleTasks, readAttemptTrajectory, readExperimentDir } from "./analysis-input.js";
export {
  type Analysis,
  type AnalysisInput,
  type ArmAnalysis,
  type AttemptAnalysis,
  analyzeExperiment,
  type Comparison,
  type GridCell,
  type ReadTrajectory,
} from "./analyze.js";
export type { ResolvedArm } from "./arms.js";
export { type AttemptExecutor, NoScript, type PlannedAttempt, runAttemptHere } from "./attempt.js";
export { EXAMPLE_EXPERIMENT } from "./example.js";
export {
  attemptCount,
  checkExperiment,
  type Experiment,
  type LoadedExperiment,
  loadExperiment,
  oneArmExperiment,
} from "./load.js";
export { ExperimentError, formatProblem } from "./problems.js";
export { type AttemptEvent, attemptDir, type ExperimentRun, type RunStart, runExperiment } from "./run.js";
export type { ArmSampling, ChainResult, SamplingAnalysis } from "./sampling-analysis.js";
export type { Sampling } from "./sampling-spec.js";
export type { EvidenceEvent } from "./selection-evidence.js";
export type { Problem } from "./source.js";
export {
  type ArmVersion,
  type AttemptKey,
  type AttemptOutcome,
  type AttemptRow,
  type AttemptStatus,
  AttemptStore,
  DB_FILE,
  SCHEMA_VERSION,
  StoreRefused,
} from "./store.js";
export type { TaskRef } from "./tasks.js";
export { classifyFailure, FAILURE_CLASSES, type Failure, type FailureClass } from "./taxonomy.js";
