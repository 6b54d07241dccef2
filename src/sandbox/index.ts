export {
  type BackendChoice,
  type BwrapExecResult,
  BwrapSandbox,
  type BwrapSandboxOptions,
  openSandbox,
  probeBwrap,
} from "./bwrap/index.js";
export { type DoctorCheck, detectBackends, formatDoctor } from "./doctor.js";
export { HeadTailBuffer } from "./output-cap.js";
export {
  DEFAULT_LIMITS,
  DEFAULT_OUTPUT_LIMIT,
  ProcessSandbox,
  type ProcessSandboxOptions,
  sandboxEnvironment,
} from "./process.js";
export {
  CHANNEL_FD_FROM_HOST,
  CHANNEL_FD_TO_HOST,
  type ExecChannel,
  type ExecRequest,
  type ExecResult,
  type ResourceLimits,
  type Sandbox,
} from "./types.js";
