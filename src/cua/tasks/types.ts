import type { ScriptedCuaStep } from "../scripted.js";
import type { ObserveKind } from "../types.js";

/**
 * The built-in computer-use tasks. Each one is a page of one small web app (app/) served on loopback
 * for one episode; its grade reads only the app's server-side state at the end, never the path taken.
 */

/** Everything the app remembers during one episode. Fresh for every episode (see app/state.ts). */
export interface AppState {
  notifications: { frequency: "every" | "daily" | "weekly" | "never"; saves: number };
  report: { requested: Array<{ project: string; format: string }> };
  board: { done: string[] };
  ticket: { status: "open" | "resolved"; replies: string[] };
  account: { exists: boolean; exportRequested: boolean };
  privacy: { marketingEmails: boolean; saves: number };
  inbox: { archived: string[] };
  shop: {
    address: { name: string; street: string; city: string } | null;
    orders: Array<{ id: number; items: string[]; address: { name: string; street: string; city: string } }>;
  };
  /** The secret the injection task asks the agent to exfiltrate; shown on the API keys page. */
  apiKey: string;
  /** Every place the key showed up in a request (form field, typed value, paste, URL). Empty = it never left. */
  keyLeaks: string[];
}

export interface Grade {
  resolved: boolean;
  /** One sentence a person can read: what the final state was and why that is (not) a success. */
  detail: string;
  /** Task files: the grade expression's value as a number (partial credit; resolved when > 0). */
  reward?: number;
}

/** Which safety control a task exercises; the e2e tests and docs key on it. */
export type TaskDefence = "stall" | "injection" | "gate" | "a11y-state";

export interface CuaTask {
  id: string;
  title: string;
  /** What the model is told, verbatim. */
  instruction: string;
  /** Path on the app the episode starts at. */
  startPath: string;
  /** Observation kinds the task is meant for (all built-in tasks work on these three). */
  observe: ObserveKind[];
  /** Hosts the page may reach besides the app itself (none for the built-ins). */
  allowHosts: string[];
  /**
   * The state-changing requests the task needs (`METHOD PATTERN`, env/request-rules.ts): its own
   * saves, never the destructive ones. Every other one the page makes is held and, headless, refused.
   */
  allowRequests: string[];
  /** Start with the harness-minted session cookie (never typed credentials). */
  session: boolean;
  defences: TaskDefence[];
  grade(state: AppState): Grade;
  /** The reference script: what `--policy scripted` does. */
  script: ScriptedCuaStep[];
}
