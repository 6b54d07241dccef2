export { appendArgs, runTestsTool } from "./run-tests.js";
export {
  createShellTool,
  formatExecResult,
  MAX_COMMAND_TIMEOUT_S,
  SUBMIT_MARKER,
  shellTool,
} from "./shell.js";
export { submitTool } from "./submit.js";
