/**
 * The one question asked before every tool call (JSON calls and those a program makes): may this run?
 * In order: the PreToolUse hooks (a block stops it, their decision counts), the permission rules and
 * mode (deny wins over everything, a hook's allow included), then — for "ask" — the user, or, in a
 * headless run, a denial that tells the model why. A call that may change files and is allowed gets
 * a checkpoint first.
 */
import type { PermissionDecision, PermissionHook, ToolKind } from "../tools/index.js";
import type { Approval, ApprovalRequest, Behavior, RuleDecision } from "./types.js";

export interface HookVerdict {
  /** Exit 2 or `decision: "block"`: the reason goes back to the model. */
  block?: string;
  decision?: Behavior;
  reason?: string;
}

export interface GateOptions {
  kindOf(tool: string): ToolKind | undefined;
  rules(tool: string, kind: ToolKind, input: unknown): RuleDecision;
  preToolUse?(tool: string, input: unknown): Promise<HookVerdict>;
  /** False in `-p` runs: "ask" is then denied unless `allowAsk`. */
  interactive: boolean;
  allowAsk?: boolean;
  /** Asks the user (interactive sessions); absent = nobody to ask. */
  approve?(request: ApprovalRequest): Promise<Approval>;
  /** Before an allowed call that may change files (edit and execute kinds). */
  checkpoint?(label: string): Promise<void>;
  /** Every denial, for the result's `permission_denials`. */
  denied?(denial: { tool: string; input: unknown; reason: string }): void;
}

/** A call in one line, for approvals and checkpoint labels. */
export function describeCall(tool: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  if (typeof i.command === "string") return `${tool}: ${i.command.split("\n")[0]}`;
  if (typeof i.code === "string") return `${tool}: ${i.code.split("\n")[0]}`;
  if (typeof i.path === "string") return `${tool} ${i.path}`;
  return tool;
}

/** What "always" remembers: the tool, and for commands their first word (`npm`, `rm`). */
function alwaysKey(tool: string, input: unknown): string {
  const command = (input as { command?: unknown } | undefined)?.command;
  return typeof command === "string" ? `${tool}:${command.trim().split(/\s+/)[0] ?? ""}` : tool;
}

export function makeGate(options: GateOptions): PermissionHook {
  const always = new Set<string>();
  const deny = (tool: string, input: unknown, reason: string): PermissionDecision => {
    options.denied?.({ tool, input, reason });
    return { allow: false, reason };
  };
  return async (tool, input) => {
    const kind = options.kindOf(tool) ?? "execute";
    const hook = options.preToolUse ? await options.preToolUse(tool, input) : {};
    if (hook.block !== undefined) return deny(tool, input, `blocked by a PreToolUse hook: ${hook.block}`);
    const rule = options.rules(tool, kind, input);
    let behavior: Behavior = rule.behavior;
    let reason = rule.reason;
    if (behavior !== "deny" && hook.decision !== undefined) {
      behavior = hook.decision;
      reason = hook.reason ?? `a PreToolUse hook said ${hook.decision}`;
    }
    if (behavior === "deny") return deny(tool, input, reason);
    if (behavior === "ask" && !always.has(alwaysKey(tool, input))) {
      const summary = describeCall(tool, input);
      if (!options.interactive || !options.approve) {
        if (!options.allowAsk)
          return deny(
            tool,
            input,
            `${summary} needs the user's approval (${reason}), and this run is headless (-p), so it was not run. Do without it, or finish and say what you would have run; the user can allow it with a rule in .acilab/settings.json or --permission-mode`,
          );
      } else {
        const request: ApprovalRequest = { tool, summary, reason };
        const answer = await options.approve(request);
        if (answer === "no")
          return deny(tool, input, `the user declined ${summary}; ask them or try another way`);
        if (answer === "always") always.add(alwaysKey(tool, input));
      }
    }
    if ((kind === "edit" || kind === "execute") && options.checkpoint)
      await options.checkpoint(describeCall(tool, input));
    return { allow: true };
  };
}
