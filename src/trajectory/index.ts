export { MemoryTrajectory, readTrajectory, type TrajectorySink, TrajectoryWriter } from "./io.js";
export {
  type ActionRecord,
  type RunEndRecord,
  type RunStartRecord,
  TRAJECTORY_VERSION,
  type TrajectoryRecord,
  type TurnRecord,
} from "./records.js";
