/**
 * Claude Code's tool names and acilab's, so that rules and hook matchers written for Claude Code
 * (`Bash(npm test:*)`, `"matcher": "Edit|Write"`) apply to acilab's tools unchanged, and so what a
 * hook reads on stdin (and a script reads in `permission_denials`) names calls as Claude Code does.
 */
import { isAbsolute, join } from "node:path";

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

/** Tools whose `path` is one file, which Claude Code's Read, Edit and Write call `file_path`. */
const FILE_TOOLS = new Set(["Read", "Edit", "Write"]);

/** A call as Claude Code's hooks and results name it; acilab's own tool name rides beside it. */
export interface ClaudeCall {
  /** Claude Code's name (`Bash`, `Edit`, `Read` …), or acilab's where Claude Code has none (`submit`). */
  tool_name: string;
  acilab_tool_name: string;
  /** acilab's input, with Claude Code's field names added where they mean the same thing. */
  tool_input: unknown;
}

/**
 * An acilab call in Claude Code's terms, so a hook written for Claude Code (`.tool_name == "Bash"`,
 * `.tool_input.file_path`) reads it unchanged. acilab's own fields stay in `tool_input` too: a file
 * tool's `path` gains `file_path` (absolute, against `cwd`), str_replace's `old`/`new` gain
 * `old_string`/`new_string`, run_code's program is also its `command`. Shell commands are `command`
 * in both.
 */
export function claudeCall(tool: string, input: unknown, cwd?: string): ClaudeCall {
  const name = claudeAlias(tool) ?? tool;
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return { tool_name: name, acilab_tool_name: tool, tool_input: input };
  const i = input as Record<string, unknown>;
  const added: Record<string, unknown> = {};
  if (FILE_TOOLS.has(name) && typeof i.path === "string")
    added.file_path = isAbsolute(i.path) || cwd === undefined ? i.path : join(cwd, i.path);
  if (tool === "str_replace") {
    if (typeof i.old === "string") added.old_string = i.old;
    if (typeof i.new === "string") added.new_string = i.new;
  }
  // A code action is Bash to Claude Code's hooks: what will run is its program, so a hook that reads
  // `tool_input.command` to refuse `rm -rf` reads the program too.
  if (tool === "run_code" && typeof i.code === "string" && i.command === undefined) added.command = i.code;
  return { tool_name: name, acilab_tool_name: tool, tool_input: { ...i, ...added } };
}
