import { join } from "node:path";
import { type BackendChoice, openSandbox, type Sandbox } from "../sandbox/index.js";
import { packageRoot, type Task, taskEnvironment } from "./task.js";

const BACKENDS: readonly BackendChoice[] = ["auto", "bwrap", "process"];

/** `ACILAB_SANDBOX=bwrap|process|auto` overrides the default (auto: bwrap where it works). */
export function defaultBackend(env: NodeJS.ProcessEnv = process.env): BackendChoice {
  const value = env.ACILAB_SANDBOX;
  if (value === undefined || value === "") return "auto";
  if ((BACKENDS as readonly string[]).includes(value)) return value as BackendChoice;
  throw new Error(`ACILAB_SANDBOX="${value}" is not a sandbox backend; use one of ${BACKENDS.join(", ")}`);
}

export function parseBackend(value: string | undefined): BackendChoice {
  if (value === undefined) return defaultBackend();
  if ((BACKENDS as readonly string[]).includes(value)) return value as BackendChoice;
  throw new Error(`--sandbox "${value}" is not a sandbox backend; use one of ${BACKENDS.join(", ")}`);
}

/**
 * The sandbox a task's commands run in. TypeScript tasks see acilab's node_modules read-only, so
 * `node --import <tsx loader>` works inside; nothing else of the host's beyond the system is bound.
 */
export async function openTaskSandbox(
  task: Pick<Task, "language">,
  root: string,
  backend: BackendChoice = defaultBackend(),
): Promise<{ sandbox: Sandbox; warning?: string }> {
  const readOnlyBinds = task.language === "typescript" ? [join(packageRoot(), "node_modules")] : [];
  return openSandbox({ workspace: root, env: taskEnvironment(task), readOnlyBinds, backend });
}
