/**
 * The loaded settings as the permission gate's `rules` callback (src/agent/gate.ts): one function of
 * the call, the rules and the mode fixed for the session.
 */
import type { ToolKind } from "../tools/index.js";
import { decide, type PermissionMode } from "./rules.js";
import type { Settings } from "./settings.js";
import type { RuleDecision } from "./types.js";

/**
 * `mode` is the session's (`--permission-mode`), else the settings' `defaultMode`, else "default".
 * `repo` is where the calls' relative paths point: the settings' repository unless the tools work on
 * a copy of it somewhere else.
 */
export function permissionRules(
  settings: Pick<Settings, "rules" | "defaultMode" | "repo">,
  mode?: PermissionMode,
  repo: string = settings.repo,
): (tool: string, kind: ToolKind, input: unknown) => RuleDecision {
  const chosen = mode ?? settings.defaultMode ?? "default";
  return (tool, kind, input) => decide({ rules: settings.rules, mode: chosen, tool, kind, input, repo });
}
