/**
 * Claude Code's tool names and acilab's, so that rules and hook matchers written for Claude Code
 * (`Bash(npm test:*)`, `"matcher": "Edit|Write"`) apply to acilab's tools unchanged.
 */

/** Claude Code's built-in tool names, each with the acilab tools it stands for. */
export const CLAUDE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Bash: ["shell", "run_code"],
  Edit: ["str_replace", "insert", "create_file", "write_file", "edit", "undo"],
  Write: ["str_replace", "insert", "create_file", "write_file", "edit", "undo"],
  MultiEdit: ["str_replace", "insert", "create_file", "write_file", "edit", "undo"],
  // Accepted so Claude Code's files load; acilab has no notebook or web tools, so they match nothing.
  NotebookEdit: [],
  Read: ["view", "read_file", "goto", "scroll"],
  Grep: ["grep", "search_dir", "search_file"],
  Glob: ["glob", "find_file"],
  LS: ["glob", "find_file"],
  TodoWrite: ["todo_write"],
  Task: ["task"],
  WebFetch: [],
  WebSearch: [],
};

/** An acilab tool name as rules and matchers accept it: lowercase, digits and underscores. */
export const ACILAB_TOOL_NAME = /^[a-z][a-z0-9_]*$/;

export function isClaudeTool(name: string): boolean {
  return Object.hasOwn(CLAUDE_TOOLS, name);
}

/** The acilab tools a name in a rule stands for: a Claude Code name's tools, or the acilab name itself. */
export function acilabToolsFor(name: string): readonly string[] {
  return isClaudeTool(name) ? (CLAUDE_TOOLS[name] ?? []) : [name];
}

/** Every Claude Code name that stands for an acilab tool (`str_replace` → Edit, Write, MultiEdit). */
export function claudeAliases(acilabName: string): string[] {
  return Object.entries(CLAUDE_TOOLS)
    .filter(([, names]) => names.includes(acilabName))
    .map(([claude]) => claude);
}

/** Writing tools whose Claude Code counterpart is Write (a whole file) rather than Edit. */
const WRITES = new Set(["create_file", "write_file"]);

/** The one Claude Code name shown for an acilab tool (`shell` → Bash), if it has one. */
export function claudeAlias(acilabName: string): string | undefined {
  if (WRITES.has(acilabName)) return "Write";
  return claudeAliases(acilabName)[0];
}
