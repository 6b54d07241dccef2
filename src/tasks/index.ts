export { EnvBuildError, EnvironmentUnavailable, type EnvMount } from "../envlayers/index.js";
export { acmeTask } from "./acme/index.js";
export { instanceEnvironment } from "./environment.js";
export { type TaskRepository, taskInstance, taskRepository } from "./instance.js";
export { buildLibraryRepo, cacheDir, type Library, listLibraries, loadLibrary } from "./library.js";
export {
  type LoadedInstances,
  type LoadOptions,
  loadInstanceRows,
  type UnavailableRow,
} from "./published.js";
export { findRepository, gitRepositoryAt, REPOS_ENV, reposDir, storeNames } from "./repo-store.js";
export {
  openTaskSandbox,
  runSetupCommands,
  SETUP_TIMEOUT_MS,
} from "./sandbox.js";
export {
  builtinTasksDir,
  type InstanceTaskOptions,
  instancePrompt,
  instanceTask,
  listTaskIds,
  loadTask,
  packageRoot,
  referenceScript,
  resolvePlaceholders,
  type Task,
  type TaskSource,
  taskEnvironment,
  taskFromInstance,
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
export { checkoutAt, checkoutTask, type TaskCheckout } from "./workspace.js";
