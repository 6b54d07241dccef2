import type { Route } from "../app/server.js";
import type { CuaTask } from "../types.js";

/** One task: its definition plus the app routes its pages need. */
export interface TaskModule {
  task: CuaTask;
  routes: Route[];
}

/** All built-in tasks use the same observation kinds: the browser offers all three. */
export const BROWSER_OBSERVE: CuaTask["observe"] = ["screenshot", "a11y", "som"];
