/**
 * Task files from disk: one file, or a folder of them (`*.yaml` in it and `<sub>/task.yaml` one level
 * down), each checked against what it names (the static folder exists, the command takes a port).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { parseTaskFile, type TaskFile, TaskFileError } from "./schema.js";

/** The name a task file has inside a task folder. */
export const TASK_FILE_NAME = "task.yaml";

/** True when `value` (a `--task` argument, an experiment entry) names a task file or a folder of them. */
export function looksLikeTaskPath(value: string): boolean {
  return /\.ya?ml$/.test(value) || value.includes("/") || value.startsWith(".");
}

/** A file as a message shows it: relative to the current folder when inside it, else absolute. */
function shownPath(file: string): string {
  const shown = relative(process.cwd(), file);
  return shown === "" || shown.startsWith("..") || isAbsolute(shown) ? file : shown;
}

/** Load one task file. Throws TaskFileError naming the file, the field and the fix. */
export function loadTaskFile(path: string): TaskFile {
  const file = resolve(path);
  const shown = shownPath(file);
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (err) {
    throw new TaskFileError(
      shown,
      "",
      `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)}) — pass a task.yaml or a folder of them`,
    );
  }
  const task = { ...parseTaskFile(shown, source, dirname(file)), file };
  checkPaths(task, shown);
  return task;
}

function checkPaths(task: TaskFile, shown: string): void {
  const { app } = task;
  if (app.kind === "static" && !(existsSync(app.dir) && statSync(app.dir).isDirectory()))
    throw new TaskFileError(
      shown,
      "app.static",
      `no folder ${app.dir} — create it (with the start page, ${task.start ?? "index.html"}) or fix the path; it is relative to the task file`,
    );
  if (app.kind === "static") {
    // The page (and through it the model) reads everything under the folder: never a whole disk or home.
    const real = realpathSync(app.dir);
    const home = realpathSync(homedir());
    if (real === "/" || real === home || home.startsWith(`${real}${sep}`))
      throw new TaskFileError(
        shown,
        "app.static",
        `${app.dir} is ${real === "/" ? "the filesystem root" : "your home directory or above it"}: the page and the model could read every file in it — point it at the site's own folder`,
      );
  }
  if (app.kind === "command" && !app.command.includes("{port}"))
    throw new TaskFileError(
      shown,
      "app.command",
      'has no "{port}" — acilab picks a free port for each episode; write {port} where the app takes its port',
    );
  if (app.kind === "command" && !app.ready.startsWith("/"))
    throw new TaskFileError(
      shown,
      "app.ready",
      `"${app.ready}" is not a path — write the path to poll, e.g. /health`,
    );
}

/** Every task file under `path`: the file itself, or a folder's. Problems are collected, not thrown. */
export function loadTaskFolder(path: string): { tasks: TaskFile[]; problems: TaskFileError[] } {
  const root = resolve(path);
  if (!existsSync(root))
    return {
      tasks: [],
      problems: [
        new TaskFileError(path, "", "no such file or folder — pass a task.yaml or a folder of task folders"),
      ],
    };
  const files = statSync(root).isDirectory() ? taskFilesIn(root) : [root];
  const tasks: TaskFile[] = [];
  const problems: TaskFileError[] = [];
  const ids = new Map<string, string>();
  for (const file of files) {
    try {
      const task = loadTaskFile(file);
      const other = ids.get(task.id);
      if (other)
        throw new TaskFileError(
          shownPath(file),
          "id",
          `"${task.id}" is also the id of ${shownPath(other)} — ids must be unique`,
        );
      ids.set(task.id, file);
      tasks.push(task);
    } catch (err) {
      if (!(err instanceof TaskFileError)) throw err;
      problems.push(err);
    }
  }
  if (files.length === 0)
    problems.push(
      new TaskFileError(
        path,
        "",
        `no task files in this folder — add ${TASK_FILE_NAME} files (one folder per task)`,
      ),
    );
  return { tasks, problems };
}

/** Load `path`'s task files, or throw one error listing every problem. */
export function loadTaskFiles(path: string): TaskFile[] {
  const { tasks, problems } = loadTaskFolder(path);
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw new Error(problems.map((p) => p.message).join("\n"));
  return tasks;
}

function taskFilesIn(dir: string): string[] {
  const own = join(dir, TASK_FILE_NAME);
  if (existsSync(own)) return [own];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (/\.ya?ml$/.test(name) && statSync(path).isFile()) out.push(path);
    else if (statSync(path).isDirectory() && existsSync(join(path, TASK_FILE_NAME)))
      out.push(join(path, TASK_FILE_NAME));
  }
  return out;
}
