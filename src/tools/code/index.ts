export {
  MAX_CALLS_PER_PROGRAM,
  MAX_PENDING_REQUESTS,
  MAX_REQUEST_BYTES,
  type ProgramTool,
  ToolCallServer,
} from "./rpc.js";
export {
  ACTION_FORMATS,
  type ActionFormat,
  CODE_OUTPUT_LIMIT,
  codeActionTools,
  createRunCodeTool,
  LANGUAGES,
  type Language,
  programObservation,
  toolsForFormat,
} from "./run-code.js";
