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
export { type PreparedWorkspace, prepareWorkspace } from "./workspace.js";
