export {
  BACKEND_CHOICES,
  type BackendChoice,
  type BackendName,
  defaultBackend,
  isBackendChoice,
  isBackendName,
  parseBackend,
} from "./backends.js";
export { type ReadOnlyBind, resolveReadOnlyBinds } from "./binds.js";
export {
  DEFAULT_BOX_CPUS,
  DEFAULT_BOX_MEMORY_BYTES,
  DEFAULT_BOX_PIDS,
  ProgramBox,
  type ProgramBoxOptions,
  sweepBoxLeftovers,
  unprivilegedArgv,
} from "./box/index.js";
export {
  adoptTree,
  assertReachable,
  type BwrapExecResult,
  BwrapSandbox,
  type CpuStat,
  DEFAULT_CPUS,
  MAX_ADOPT_DEPTH,
  probeBwrap,
  SANDBOX_GID,
  SANDBOX_UID,
  sandboxIdentity,
} from "./bwrap/index.js";
export { type DoctorCheck, detectBackends, formatDoctor } from "./doctor.js";
export type { LimitLine, LimitProbe } from "./doctor-limits.js";
export { executableIn, isExecutableFile, pathDirs } from "./executables.js";
export {
  formatDecisions,
  type NetDecision,
  type NetworkPolicy,
  PROXY_SOCKET,
  PROXY_URL,
  parseAllowRule,
} from "./net/index.js";
export { openSandbox } from "./open.js";
export { HeadTailBuffer } from "./output-cap.js";
export {
  DEFAULT_LIMITS,
  DEFAULT_OUTPUT_LIMIT,
  ProcessSandbox,
  type ProcessSandboxOptions,
  SANDBOX_PATH,
  sandboxEnvironment,
} from "./process.js";
export {
  probeRunsc,
  type RunscBuild,
  type RunscProbe,
  RunscSandbox,
  type RunscSandboxOptions,
  runscBuild,
} from "./runsc/index.js";
export {
  CHANNEL_FD_FROM_HOST,
  CHANNEL_FD_TO_HOST,
  type ExecChannel,
  type ExecRequest,
  type ExecResult,
  type ResourceLimits,
  type Sandbox,
  type SandboxOptions,
} from "./types.js";
