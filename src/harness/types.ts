/**
 * The contracts between the harness's parts and whoever drives them (`acilab agent`, task runs):
 * what a permission rule decides, what a hook event came to, what the plan holds.
 */

/** Claude Code's three answers, in the order they win: deny over ask over allow. */
export type Behavior = "allow" | "deny" | "ask";

export interface RuleDecision {
  behavior: Behavior;
  /** Why, for the model when denied and for the user when asked: the rule and the file it came from. */
  reason: string;
}

/** The hook events acilab raises, with Claude Code's names. */
export type HookEvent =
  | "PreToolUse"
  | "PostToolUse"
  | "UserPromptSubmit"
  | "Stop"
  | "PreCompact"
  | "SessionStart";

export const HOOK_EVENTS: readonly HookEvent[] = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "PreCompact",
  "SessionStart",
];

/** One event's hooks, combined: any block wins; the strictest decision counts (deny, then ask, then allow). */
export interface HookOutcome {
  /** Exit 2 (stderr) or `decision: "block"` / `permissionDecision: "deny"` (reason): goes back to the model. */
  block?: string;
  /** PreToolUse only: a hook's permission decision. */
  decision?: Behavior;
  reason?: string;
  /** Text the hooks add for the model (SessionStart, UserPromptSubmit, PostToolUse). */
  additionalContext?: string;
  /** Problems that did not stop anything (a hook timed out, printed garbage): shown to the user. */
  errors: string[];
}

export type RunHooks = (event: HookEvent, payload: Record<string, unknown>) => Promise<HookOutcome>;

export const NO_HOOKS: RunHooks = async () => ({ errors: [] });

/** One item of the agent's plan (Claude Code's TodoWrite shape). */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
  /** The present-tense form shown while the item is in progress ("Running the tests"). */
  activeForm?: string;
}

export interface ApprovalRequest {
  tool: string;
  /** One line: `shell: rm -rf build`, `write_file src/a.py`. */
  summary: string;
  reason: string;
}

export type Approval = "yes" | "no" | "always";
