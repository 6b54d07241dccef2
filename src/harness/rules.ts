/**
 * Claude Code's permission rules — `Bash`, `Bash(npm test)`, `Bash(npm test:*)`, `Edit(src/**)`,
 * `Read(./.env)` — parsed from settings files and evaluated per call, and the permission modes that
 * decide what no rule covers. Deny rules are checked first, then ask, then allow, whichever file they
 * came from: a rule can only be overridden by a stricter one.
 */
import type { ToolKind } from "../tools/index.js";
import { pathMatches } from "./path-patterns.js";
import { splitCommand } from "./shell-split.js";
import { ACILAB_TOOL_NAME, acilabToolsFor, CLAUDE_TOOLS, claudeAlias, isClaudeTool } from "./tool-names.js";
import type { Behavior, RuleDecision } from "./types.js";

export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Which settings file a rule or hook came from, lowest precedence first. */
export type Scope = "user" | "project" | "local" | "flag";

export interface ParsedRule {
  /** As written: a Claude Code name (`Bash`) or an acilab one (`shell`). */
  tool: string;
  /** Inside the parentheses; absent for `Tool` and `Tool(*)`, which cover every call. */
  specifier?: string;
}

export interface Rule {
  behavior: Behavior;
  rule: ParsedRule;
  /** The rule as written, for reasons. */
  text: string;
  /** The settings file it came from. */
  source: string;
  scope: Scope;
  /** The settings file's project root, for `/x` path patterns. */
  root: string;
}

const RULE_EXAMPLES = 'e.g. "Bash", "Bash(npm test)", "Bash(npm test:*)", "Edit(src/**)" or "Read(./.env)"';

export class RuleSyntaxError extends Error {
  constructor(
    readonly text: string,
    readonly file: string,
    problem: string,
  ) {
    super(
      `permission rule ${JSON.stringify(text)} in ${file}: ${problem}. A rule is a tool name, optionally with a specifier in parentheses: ${RULE_EXAMPLES}`,
    );
    this.name = "RuleSyntaxError";
  }
}

/** `Tool` or `Tool(specifier)`; throws RuleSyntaxError, naming the file, for anything else. */
export function parseRule(text: string, file: string): ParsedRule {
  const trimmed = text.trim();
  if (trimmed === "") throw new RuleSyntaxError(text, file, "the rule is empty");
  const m = /^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$/s.exec(trimmed);
  if (!m) {
    const problem = trimmed.startsWith("(")
      ? "it has no tool name before the parentheses"
      : trimmed.includes("(") && !trimmed.endsWith(")")
        ? "its parenthesis is not closed"
        : "it is not of the form Tool or Tool(specifier)";
    throw new RuleSyntaxError(text, file, problem);
  }
  const tool = m[1] as string;
  if (!isClaudeTool(tool) && !ACILAB_TOOL_NAME.test(tool))
    throw new RuleSyntaxError(
      text,
      file,
      `there is no tool named ${tool}; use one of Claude Code's (${Object.keys(CLAUDE_TOOLS).join(", ")}) or an acilab tool name (shell, str_replace, view …)`,
    );
  const specifier = m[2];
  if (specifier === undefined) return { tool };
  if (specifier.trim() === "")
    throw new RuleSyntaxError(
      text,
      file,
      `the parentheses are empty; write ${tool} alone to cover every call`,
    );
  return specifier.trim() === "*" ? { tool } : { tool, specifier: specifier.trim() };
}

/** The call a rule is checked against. */
export interface Call {
  tool: string;
  input: unknown;
  repo: string;
}

/** How a rule's specifier reads a call: a command, a path, or a program's text (run_code). */
function specifierKind(
  tool: string,
  input: Record<string, unknown>,
): "command" | "path" | "code" | undefined {
  if (tool === "run_code") return "code";
  const alias = claudeAlias(tool);
  if (alias === "Bash") return "command";
  if (alias !== undefined && ["Edit", "Write", "Read", "Grep", "Glob"].includes(alias)) return "path";
  // acilab's own tools without a Claude Code name: read whichever the input has.
  if (typeof input.command === "string") return "command";
  if (typeof input.path === "string") return "path";
  return undefined;
}

function commandMatches(specifier: string, command: string): boolean {
  const normal = command.trim().replace(/\s+/g, " ");
  if (specifier.endsWith(":*")) {
    const prefix = specifier.slice(0, -2).trim().replace(/\s+/g, " ");
    return normal === prefix || normal.startsWith(`${prefix} `);
  }
  return normal === specifier.replace(/\s+/g, " ");
}

/**
 * Does `rule` apply to `call`? A compound command is covered by an allow rule only if every command
 * in it is (`strict`); a deny or ask rule applies if any one matches, with or without its leading
 * variable assignments.
 */
export function ruleMatches(rule: Rule, call: Call, strict: boolean): boolean {
  if (!acilabToolsFor(rule.rule.tool).includes(call.tool)) return false;
  const spec = rule.rule.specifier;
  if (spec === undefined) return true;
  const input = (call.input ?? {}) as Record<string, unknown>;
  switch (specifierKind(call.tool, input)) {
    case "code":
      // A program is not a command line: only `Bash`, or a rule written for run_code itself, covers it.
      return (
        rule.rule.tool === "run_code" && typeof input.code === "string" && commandMatches(spec, input.code)
      );
    case "command": {
      const segments = typeof input.command === "string" ? splitCommand(input.command) : [];
      if (segments.length === 0) return false;
      return strict
        ? segments.every((s) => commandMatches(spec, s.text))
        : segments.some((s) => commandMatches(spec, s.text) || commandMatches(spec, s.bare));
    }
    case "path":
      if (typeof input.path !== "string") return false;
      return pathMatches(spec, input.path, {
        repo: call.repo,
        // A repository's own settings are anchored at the repository being worked on.
        root: rule.scope === "project" || rule.scope === "local" ? call.repo : rule.root,
      });
    default:
      return false;
  }
}

/**
 * The allow rules that together cover `call`: one rule covering all of it, or — for a compound
 * command — a rule for each of its commands (`git status && npm test` under `Bash(git status)` and
 * `Bash(npm test:*)`). Undefined if some part is left uncovered.
 */
function coveringAllows(allows: readonly Rule[], call: Call): Rule[] | undefined {
  const whole = allows.find((r) => ruleMatches(r, call, true));
  if (whole) return [whole];
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (specifierKind(call.tool, input) !== "command" || typeof input.command !== "string") return undefined;
  const used = new Set<Rule>();
  for (const segment of splitCommand(input.command)) {
    const rule = allows.find(
      (r) =>
        acilabToolsFor(r.rule.tool).includes(call.tool) &&
        r.rule.specifier !== undefined &&
        commandMatches(r.rule.specifier, segment.text),
    );
    if (!rule) return undefined;
    used.add(rule);
  }
  return used.size > 0 ? [...used] : undefined;
}

export interface DecideInput {
  rules: readonly Rule[];
  mode: PermissionMode;
  tool: string;
  kind: ToolKind;
  input: unknown;
  /** The repository root: relative paths in the input are resolved against it. */
  repo: string;
}

function ruleReason(rule: Rule): string {
  return `${rule.behavior} rule ${rule.text} in ${rule.source}`;
}

const KIND_WORDS: Record<ToolKind, string> = {
  read: "reads",
  control: "steering the run",
  edit: "edits",
  execute: "commands",
  computer: "computer actions",
};

/** What a mode does with a call no rule covers. */
function byMode(mode: PermissionMode, kind: ToolKind): RuleDecision {
  if (kind === "read" || kind === "control")
    return { behavior: "allow", reason: `${mode} mode allows ${KIND_WORDS[kind]}` };
  switch (mode) {
    case "bypassPermissions":
      return { behavior: "allow", reason: "bypassPermissions mode allows every call" };
    case "plan":
      return planDenial(kind);
    case "acceptEdits":
      return kind === "edit"
        ? { behavior: "allow", reason: "acceptEdits mode allows edits" }
        : { behavior: "ask", reason: `acceptEdits mode asks before ${KIND_WORDS[kind]}` };
    case "default":
      return { behavior: "ask", reason: `default mode asks before ${KIND_WORDS[kind]}` };
  }
}

function planDenial(kind: ToolKind): RuleDecision {
  return {
    behavior: "deny",
    reason: `plan mode is read-only: no ${KIND_WORDS[kind]} until the user leaves plan mode; read, then present the plan`,
  };
}

/**
 * The rules' and the mode's answer for one call: a matching deny rule, else a matching ask rule,
 * else a matching allow rule, else the mode. Plan mode is read-only even against allow and ask
 * rules — that is what the user chose it for; only deny rules speak before it.
 */
export function decide(d: DecideInput): RuleDecision {
  const call: Call = { tool: d.tool, input: d.input, repo: d.repo };
  const first = (behavior: Behavior) =>
    d.rules.find((r) => r.behavior === behavior && ruleMatches(r, call, false));
  const deny = first("deny");
  if (deny) return { behavior: "deny", reason: ruleReason(deny) };
  if (d.mode === "plan" && d.kind !== "read" && d.kind !== "control") return planDenial(d.kind);
  const ask = first("ask");
  if (ask) return { behavior: "ask", reason: ruleReason(ask) };
  const allows = coveringAllows(
    d.rules.filter((r) => r.behavior === "allow"),
    call,
  );
  if (allows) return { behavior: "allow", reason: allows.map(ruleReason).join("; ") };
  return byMode(d.mode, d.kind);
}
