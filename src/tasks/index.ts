export { acmeTask } from "./acme/index.js";
export { defaultBackend, openTaskSandbox, parseBackend } from "./sandbox.js";
export {
  builtinTasksDir,
  listTaskIds,
  loadTask,
  packageRoot,
  referenceScript,
  type Task,
  taskEnvironment,
  tsxLoaderPath,
} from "./task.js";
export {
  type AnyTask,
  resolveTask,
  TOOLS_TASKS,
  type ToolsEpisode,
  type ToolsGrade,
  type ToolsTask,
} from "./tools-task.js";
export { type PreparedWorkspace, prepareWorkspace } from "./workspace.js";
