export { capInput, capRecordedCall, capText, RECORDED_CALL_CHARS, type RecordedCall } from "./caps.js";
export { withoutImageData } from "./images.js";
export { MemoryTrajectory, readTrajectory, type TrajectorySink, TrajectoryWriter } from "./io.js";
export {
  type ActionRecord,
  type CompactionRecord,
  type RunEndRecord,
  type RunStartRecord,
  type StageRecord,
  TRAJECTORY_VERSION,
  type TrajectoryRecord,
  type TurnRecord,
} from "./records.js";
