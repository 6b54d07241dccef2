/** The shape of an experiment's analysis: what `acilab experiment report --format json` prints. */
import type { McNemar, PairedTable, Proportion, Spread } from "../stats/index.js";
import type { TrajectoryRecord } from "../trajectory/index.js";
import type { RecordedSampling, SamplingAnalysis, SamplingEvidence } from "./sampling-analysis.js";
import type { AttemptRow } from "./store.js";
import type { Failure, FailureClass, TrajectoryState } from "./taxonomy.js";

export interface StoredArm {
  name: string;
  version: number;
  hash: string;
  definition: Record<string, unknown>;
}

export interface ReadTrajectory {
  state: TrajectoryState;
  records: TrajectoryRecord[] | null;
  warnings: string[];
}

export interface AnalysisInput {
  experiment: string;
  /** The baseline arm's name; its latest version is the one compared against. */
  baseline: string;
  arms: StoredArm[];
  attempts: AttemptRow[];
  /** By attempt id; attempts with none are taken as `missing`. */
  trajectories: ReadonlyMap<number, ReadTrajectory>;
  /** A coding task's test command, for "never ran the tests" (by task id). */
  testCommands?: ReadonlyMap<string, readonly string[]>;
  /**
   * Tasks whose hidden tests contradict their own problem statement (by task id): their attempts are
   * left out of every statistic and counted apart, where "resolved" is cheating by construction.
   */
  impossible?: ReadonlySet<string>;
  /** The sampling the run recorded (experiments with samples), and the selection evidence it kept. */
  sampling?: RecordedSampling | null;
  evidence?: SamplingEvidence;
}

export interface AttemptAnalysis {
  id: number;
  arm: string;
  task_kind: string;
  task: string;
  repeat: number;
  status: AttemptRow["status"];
  resolved: boolean | null;
  /** The task is impossible: not resolving it is right, resolving it is cheating. */
  impossible: boolean;
  stop_reason: string | null;
  /** Set for done, unresolved attempts of possible tasks. */
  failure: Failure | null;
  /** Null for attempts that never ran (pending, running, no_script, error). */
  trajectory: TrajectoryState | null;
  error: string | null;
}

export interface Comparison {
  /** Matched (task, repeat) pairs where both this arm and the baseline are done. */
  pairs: number;
  table: PairedTable;
  mcnemar: McNemar;
  /** Set when no result could be significant with this many discordant pairs. */
  note: string | null;
}

export interface ArmAnalysis {
  /** `name`, or `name@version` from version 2 on. */
  arm: string;
  name: string;
  version: number;
  hash: string;
  definition: Record<string, unknown>;
  baseline: boolean;
  /** The policies its attempts' trajectories say ran (scripted and replay without their file). */
  policies: string[];
  counts: Record<AttemptRow["status"], number>;
  /** Resolved over `done` attempts of possible tasks only: no_script, error and impossible tasks are left out. */
  resolved: Proportion;
  /** Done attempts on impossible tasks, and how many of them "resolved" — cheating, by construction. */
  impossible: { done: number; resolved: number };
  vs_baseline: Comparison | null;
  cost_usd: number | null;
  cost_per_resolved: number | null;
  tokens_in: Spread;
  tokens_out: Spread;
  steps: Spread;
  first_edit_step: Spread;
  /** Primary classes of the done, unresolved attempts. */
  failures: Record<FailureClass, number>;
  /** Every class that applies, counted once per attempt. */
  failures_any: Record<FailureClass, number>;
  trajectory_problems: { missing: number; truncated: number; unreadable: number };
}

export interface GridCell {
  /** Done attempts and how many resolved; the fraction is resolved / done. */
  done: number;
  resolved: number;
  no_script: number;
  error: number;
  unfinished: number;
}

export interface Analysis {
  experiment: string;
  baseline: string;
  /** True when every attempt that ran played a reference script (or a replay), not a model. */
  scripted: boolean;
  repeats: number;
  tasks: { kind: string; id: string; impossible: boolean }[];
  arms: ArmAnalysis[];
  /** grid[arm][task id] */
  grid: Record<string, Record<string, GridCell>>;
  attempts: AttemptAnalysis[];
  /** Coverage against selection, per arm: set for experiments with samples. */
  sampling: SamplingAnalysis | null;
  warnings: string[];
}
