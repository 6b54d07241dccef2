export { BOX_HOME, type BoxArgsSpec, buildBoxArgs } from "./argv.js";
export {
  DEFAULT_BOX_CPUS,
  DEFAULT_BOX_MEMORY_BYTES,
  DEFAULT_BOX_PIDS,
  ProgramBox,
  type ProgramBoxOptions,
  sweepBoxLeftovers,
  unprivilegedArgv,
} from "./box.js";
export { BOX_SETUP_FAILED, BOX_WRAPPER_FAILED, shellQuote, wrapperScript } from "./wrapper.js";
