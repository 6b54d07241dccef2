import type { Policy } from "../../policies/index.js";
import type { InspectableEnvironment } from "../env/index.js";
import type { CuaStage, OpenStage } from "../stage.js";
import { cuaScriptedPolicy } from "../tasks/policy.js";
import { PageHazardError } from "../types.js";
import { type StartAppOptions, startApp } from "./app.js";
import { expression, PageGrade, readPage, statements } from "./page-grade.js";
import { type TaskFile, TaskFileError } from "./schema.js";

/**
 * A task file as a run's stage: its app started for the episode, the first page loaded here (so
 * setup_js can run and instruction_js can be read before the model is told anything), the grade read
 * in the page after every step and at the end.
 */
export function taskFileStage(task: TaskFile, options: StartAppOptions = {}): CuaStage {
  return { id: task.id, observe: task.observe, open: (env) => openTaskFile(task, env, options) };
}

async function openTaskFile(
  task: TaskFile,
  env: InspectableEnvironment,
  options: StartAppOptions,
): Promise<OpenStage> {
  const app = await startApp(task, options);
  try {
    const base = task.app.kind === "url" ? task.app.url : `${app.origin}/`;
    const start = {
      url: new URL(task.start ?? "", base).href,
      allowHosts: [app.host, ...task.allowHosts],
      allowRequests: task.allowRequests,
    };
    const instruction = await firstPage(task, env, start);
    const page = new PageGrade(env, task);
    return {
      task: { id: task.id, instruction, start },
      loaded: true,
      afterStep: (step) => page.afterStep(step),
      beforeClose: (ended) => page.final(ended),
      grade: () => page.verdict(),
      keyLeaks: () => [],
      close: () => app.close(),
    };
  } catch (err) {
    await app.close();
    throw err;
  }
}

/**
 * Load the first page, run setup_js and read the instruction. A page that misbehaves meanwhile (its
 * first load never ends, it crashes, it floods) is no fault of the task file: the episode then starts
 * with what is known, and its first capture ends it as page_misbehaved, with a result.json like any
 * other episode (the environment keeps its hazard until the next reset).
 */
async function firstPage(
  task: TaskFile,
  env: InspectableEnvironment,
  start: { url: string; allowHosts: string[]; allowRequests: string[] },
): Promise<string> {
  const stated = "text" in task.instruction ? task.instruction.text : undefined;
  const unread = stated ?? "(the instruction could not be read: the page misbehaved before it loaded)";
  try {
    await env.reset(start);
  } catch (err) {
    if (err instanceof PageHazardError) return unread;
    throw err;
  }
  if (task.setupJs.trim() !== "") {
    const setup = await readPage(env, statements(task.setupJs));
    if (!setup.ok && setup.pageFault) return unread;
    if (!setup.ok)
      throw new TaskFileError(task.file, "setup_js", `threw in the page: ${setup.error} — fix the script`);
  }
  return stated ?? ((await pageInstruction(task, env)) || unread);
}

/** The instruction read from the page; "" when the page (not the expression) failed. */
async function pageInstruction(task: TaskFile, env: InspectableEnvironment): Promise<string> {
  const js = "js" in task.instruction ? task.instruction.js : "";
  const read = await readPage(env, expression(js));
  if (!read.ok && read.pageFault) return "";
  if (!read.ok)
    throw new TaskFileError(
      task.file,
      "instruction_js",
      `threw in the page: ${read.error} — fix the expression`,
    );
  if (typeof read.value !== "string" || read.value.trim() === "")
    throw new TaskFileError(
      task.file,
      "instruction_js",
      `gave ${JSON.stringify(read.value) ?? "undefined"}, not the instruction's text — it must give a non-empty string once the page has loaded`,
    );
  return read.value.trim();
}

/** The task file's reference script (`--policy scripted`), or a steps file (`scripted:FILE`). */
export function taskFileScripted(task: TaskFile, file: string | undefined): Policy {
  if (file === undefined && task.script.length === 0)
    throw new TaskFileError(
      task.file,
      "script",
      "is empty, so there is no reference script to play — write script: [...] steps, or pass --policy scripted:<steps.json> or a model",
    );
  return cuaScriptedPolicy(task, file);
}
