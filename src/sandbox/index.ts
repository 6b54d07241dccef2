export { HeadTailBuffer } from "./output-cap.js";
export {
  DEFAULT_LIMITS,
  DEFAULT_OUTPUT_LIMIT,
  ProcessSandbox,
  type ProcessSandboxOptions,
  sandboxEnvironment,
} from "./process.js";
export type { ExecRequest, ExecResult, ResourceLimits, Sandbox } from "./types.js";
