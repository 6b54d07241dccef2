import type { EnvironmentStart } from "../types.js";
import type { Route, TaskApp } from "./app/server.js";
import { startTaskApp } from "./app/server.js";
import { accountGate } from "./defs/account-gate.js";
import { checkout } from "./defs/checkout.js";
import { clockBoard } from "./defs/clock-board.js";
import { COMMON_ROUTES } from "./defs/common.js";
import { inboxKeyboard } from "./defs/inbox-keyboard.js";
import type { TaskModule } from "./defs/module.js";
import { notifications } from "./defs/notifications.js";
import { privacyScroll } from "./defs/privacy-scroll.js";
import { reportForm } from "./defs/report-form.js";
import { ticketInjection } from "./defs/ticket-injection.js";
import type { CuaTask } from "./types.js";

const MODULES: TaskModule[] = [
  notifications,
  reportForm,
  clockBoard,
  ticketInjection,
  accountGate,
  privacyScroll,
  inboxKeyboard,
  checkout,
];

/** Every page of the app, whichever task an episode runs: the agent may wander, the grade won't care. */
const ROUTES: Route[] = [...COMMON_ROUTES, ...MODULES.flatMap((m) => m.routes)];

/** The built-in computer-use tasks, in a stable order. */
export function listCuaTasks(): CuaTask[] {
  return MODULES.map((m) => m.task);
}

export function getCuaTask(id: string): CuaTask {
  const task = MODULES.find((m) => m.task.id === id)?.task;
  if (!task)
    throw new Error(
      `unknown computer-use task "${id}"; the built-in ones are: ${listCuaTasks()
        .map((t) => t.id)
        .join(", ")} (or "all")`,
    );
  return task;
}

/**
 * State-changing requests every page of the app makes: its field log (each field's value as it is
 * typed, which is how a key typed anywhere is seen leaving: app/html.ts).
 */
export const APP_ALLOWED_REQUESTS: readonly string[] = ["POST /api/field-log"];

/** One episode's app, and what the environment's reset needs to open the task's first page. */
export interface TaskEpisode {
  app: TaskApp;
  start: EnvironmentStart;
}

/** Start a fresh app for one episode of `task` (state, key and session token are new each time). */
export async function startTaskEpisode(task: CuaTask): Promise<TaskEpisode> {
  const app = await startTaskApp(ROUTES);
  return {
    app,
    start: {
      url: `${app.origin}${task.startPath}`,
      allowHosts: [app.host, ...task.allowHosts],
      allowRequests: [...APP_ALLOWED_REQUESTS, ...task.allowRequests],
      ...(task.session ? { cookies: [app.sessionCookie] } : {}),
    },
  };
}

/** `tasks list --json` rows for the computer-use tasks (coding tasks say kind "coding"). */
export function describeCuaTask(t: CuaTask) {
  return {
    id: t.id,
    kind: "cua" as const,
    title: t.title,
    instruction: t.instruction,
    start_path: t.startPath,
    observe: t.observe,
    defences: t.defences,
    steps_in_script: t.script.length,
  };
}
