/** The options and help of `acilab cua`, and how each option's value is checked. */
import { existsSync, statSync } from "node:fs";
import {
  type CuaTask,
  getCuaTask,
  listCuaTasks,
  loadTaskFolder,
  looksLikeTaskPath,
  type TaskFile,
  type TaskFileError,
} from "../cua/index.js";
import { DEFAULT_CUA_LIMITS } from "../loop/index.js";
import { RUN_SETTINGS, type RunSettings } from "../run/index.js";
import { UsageError } from "./args.js";
import { optionLines } from "./options.js";
import { limitDefaults, settingOptions, settingsFor } from "./run-settings.js";

/** The settings `acilab cua` takes: what computer-use tasks read. */
export const CUA_SETTING_NAMES = settingsFor(["cua"]);

export const CUA_OPTIONS = {
  task: {
    type: "string",
    value: "<id|path>",
    help: 'a task from "acilab tasks list" (kind cua), a task file (task.yaml) or a folder of them, a comma list, or all',
  },
  ...settingOptions(CUA_SETTING_NAMES, {
    ...limitDefaults(DEFAULT_CUA_LIMITS),
    policy: {
      help: "who acts: scripted, scripted:<steps.json>, auto, or a model spec",
      defaultHelp:
        "scripted, the task's reference script, its targets resolved from the page's elements even on screenshot runs",
    },
    observe: {
      help: "what the model sees: screenshot | a11y (numbered elements) | som (numbered boxes drawn on the screenshot) | dom (the cleaned page); a comma list runs each",
      defaultHelp: "each task's first observation kind (a task file's `observe:` list, else screenshot)",
    },
  }),
  out: {
    type: "string",
    value: "<dir>",
    help: "where trajectory.jsonl, frames/, result.json and contact-sheet.png go",
    defaultHelp: "runs/cua-<task>-<time>; with several runs, <dir>/<task>/<observe>/",
  },
  json: { type: "boolean", help: "print result.json instead of the summary" },
} as const;

export const CUA_HELP = `acilab cua — run computer-use tasks in a real browser: the built-in ones, graded on the app's final
state, or task files pointing at any web app, graded by an expression read in the page

Usage: acilab cua --task <id|a,b|all|task.yaml|folder> [--policy <spec>] [--observe screenshot|a11y|som[,…]]
                  [--resolution WxH] [--tier standard|high] [--out DIR] [--max-steps N] [--budget USD]
       acilab cua image-size --screen WxH --tier standard|high

Options:
${optionLines(CUA_OPTIONS)}

Every episode gets a fresh app on 127.0.0.1 and a fresh browser profile, a session cookie instead of
credentials, an egress allowlist (the app only), and a confirmation gate that refuses destructive
clicks (nobody is there to approve them). "acilab cua image-size --help": the image a model sees for
a screen. See docs/computer-use.md.`;

/** What `--task` names: the tasks to run, and a folder's task files that did not load (one row each). */
export interface TaskChoice {
  tasks: Array<CuaTask | TaskFile>;
  broken: TaskFileError[];
}

/**
 * Built-in ids, `all`, and task files or folders of them: anything that looks like a path, or a name
 * that is no built-in id but a file or folder here. A folder's files that do not load are `broken`
 * (the run goes on without them); a file named on its own that does not load, or a path with nothing
 * to run, is a usage error.
 */
export function taskOption(value: string): TaskChoice {
  if (value === "all") return { tasks: listCuaTasks(), broken: [] };
  const choice: TaskChoice = { tasks: [], broken: [] };
  for (const v of value.split(",").map((s) => s.trim())) {
    // A built-in id wins over a folder of the same name here; ./NAME names the folder.
    if (looksLikeTaskPath(v) || (!isBuiltin(v) && existsSync(v))) addPath(choice, v);
    else choice.tasks.push(builtin(v));
  }
  return choice;
}

function isBuiltin(id: string): boolean {
  return listCuaTasks().some((t) => t.id === id);
}

function builtin(id: string): CuaTask {
  try {
    return getCuaTask(id);
  } catch (err) {
    throw new UsageError(
      `${(err as Error).message}; a task file or a folder of them is named by its path (there is no file or folder "${id}" here)`,
      "cua",
    );
  }
}

function addPath(choice: TaskChoice, path: string): void {
  const { tasks, problems } = loadTaskFolder(path);
  const folder = existsSync(path) && statSync(path).isDirectory();
  if (problems.length > 0 && (!folder || tasks.length === 0))
    throw new UsageError(problems.map((p) => p.message).join("\n"), "cua");
  choice.tasks.push(...tasks);
  choice.broken.push(...problems);
}

/**
 * `--observe a,b`: each kind checked as the setting is, or none (each task's own first kind). Every
 * kind is one run per task; the rest of the spec is the same.
 */
export function observeOption(value: string | undefined): Array<RunSettings["observe"]> {
  if (value === undefined) return [undefined];
  return value.split(",").map((k) => {
    const parsed = RUN_SETTINGS.observe.schema.safeParse(k.trim());
    if (!parsed.success)
      throw new UsageError(
        `--observe ${value}: ${parsed.error.issues[0]?.message ?? "invalid"} (or a comma list of them)`,
        "cua",
      );
    return parsed.data;
  });
}
