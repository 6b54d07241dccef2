/** Computer-use task files (task.yaml): point the harness at any web app (docs/computer-use.md). */
export { READY_TIMEOUT_MS, type RunningApp, type StartAppOptions, startApp } from "./app.js";
export { loadTaskFile, loadTaskFiles, loadTaskFolder, looksLikeTaskPath, TASK_FILE_NAME } from "./load.js";
export {
  DEFAULT_MINIWOB_SEED,
  findMiniwobCheckout,
  givesUtteranceObject,
  type MiniwobCheckout,
  miniwobTaskFile,
  type WrittenMiniwob,
  writeMiniwobTasks,
} from "./miniwob.js";
export { PageGrade, type TaskFileGrade, toReward } from "./page-grade.js";
export {
  parseTaskFile,
  TASK_FILE_OBSERVE,
  type TaskFile,
  type TaskFileApp,
  TaskFileError,
} from "./schema.js";
export { taskFileScripted, taskFileStage } from "./stage.js";
export { mimeType, resolveInRoot, serveStatic } from "./static-server.js";

import type { TaskFile } from "./schema.js";

/** A task file rather than a built-in task (both carry id, observe and script). */
export function isTaskFile(task: object): task is TaskFile {
  return "file" in task && "app" in task;
}

/** `tasks list --json` rows for task files. */
export function describeTaskFile(t: TaskFile) {
  return {
    id: t.id,
    kind: "cua" as const,
    title: "text" in t.instruction ? t.instruction.text : "(instruction read from the page)",
    file: t.file,
    app: t.app.kind,
    observe: t.observe,
    steps_in_script: t.script.length,
  };
}
