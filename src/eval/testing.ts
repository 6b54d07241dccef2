/** Test helpers of the eval area: a grading sandbox as gradeInstance opens it. */
import { rmSync } from "node:fs";
import type { Sandbox } from "../sandbox/index.js";
import type { Instance } from "../swebench/index.js";
import {
  checkoutAt,
  loadTask,
  openTaskSandbox,
  type Task,
  type TaskCheckout,
  taskInstance,
} from "../tasks/index.js";
import { makePythonTask } from "../tasks/testing.js";
import type { StepRunner } from "./steps.js";

export interface GradingSandbox {
  task: Task;
  instance: Instance;
  repo: TaskCheckout;
  sandbox: Sandbox;
  runner: StepRunner;
  base: string;
}

/**
 * A grading sandbox over a fresh checkout of a small Python task (`.git` read-only inside); what it
 * made is undone by the functions pushed onto `cleanups`, newest first.
 */
export async function gradingSandbox(cleanups: Array<() => Promise<void>>): Promise<GradingSandbox> {
  const dir = makePythonTask();
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const task = loadTask(dir);
  const instance = await taskInstance(task);
  const repo = await checkoutAt(instance.repo_path, instance.base_commit);
  cleanups.push(() => repo.checkout.dispose());
  const { sandbox } = await openTaskSandbox(instance, repo.checkout.root, undefined, {
    fromSnapshot: true,
    readOnlyParts: [".git"],
  });
  cleanups.push(() => sandbox.close());
  return { task, instance, repo, sandbox, runner: { sandbox, steps: [] }, base: instance.base_commit };
}
