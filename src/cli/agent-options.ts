/** The options and help of `acilab agent` (the command itself is agent-command.ts). */
import { optionLines } from "./options.js";
import { SANDBOX } from "./shared-options.js";

export const AGENT_OPTIONS = {
  repo: {
    type: "string",
    value: "<dir>",
    help: "your repository (its working tree, uncommitted changes included)",
    defaultHelp: "the current directory",
  },
  print: {
    type: "boolean",
    short: "p",
    help: 'headless: run the prompt once, print the result and exit; "ask" permissions are denied',
  },
  "output-format": {
    type: "string",
    value: "<f>",
    help: "with -p: text (the answer) | json (one result object) | stream-json (one JSON event per line), Claude Code's shapes",
    default: "text",
  },
  apply: {
    type: "boolean",
    help: "apply the agent's changes to your tree when it stops (refused whole if your tree changed under them); without it you are asked, or -p leaves them in the session",
  },
  continue: { type: "boolean", short: "c", help: "continue the newest session of this repository" },
  resume: {
    type: "string",
    short: "r",
    value: "<id>",
    help: "continue the session <id> (list them with --sessions)",
  },
  rewind: {
    type: "string",
    value: "<n>",
    help: "first put the session's files back to checkpoint <n> (with --continue or --resume)",
  },
  "rewind-conversation": {
    type: "boolean",
    help: "with --rewind: the conversation too, back to before that checkpoint's prompt",
  },
  sessions: { type: "boolean", help: "list this repository's saved sessions and exit" },
  policy: {
    type: "string",
    value: "<spec>",
    help: "the model: anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL, scripted:FILE, or auto (a key in the environment)",
    default: "auto",
  },
  "permission-mode": {
    type: "string",
    value: "<mode>",
    help: "default (ask before edits and commands) | acceptEdits (edits allowed, commands asked) | plan (read-only) | bypassPermissions (everything but deny rules)",
    defaultHelp: "the settings' permissions.defaultMode, else default",
  },
  settings: {
    type: "string",
    multiple: true,
    value: "<file>",
    help: "an extra settings file (Claude Code's format), over the user's and the project's; repeatable",
  },
  "allowed-tools": {
    type: "string",
    multiple: true,
    value: "<rules>",
    help: 'allow rules, e.g. "Bash(npm test:*)" "Edit(src/**)"; repeatable, or space/comma separated',
  },
  "disallowed-tools": {
    type: "string",
    multiple: true,
    value: "<rules>",
    help: "deny rules, same syntax; deny wins over every allow",
  },
  "max-turns": {
    type: "string",
    value: "<n>",
    help: "model requests per prompt before the agent is stopped",
    default: "50",
  },
  "max-budget-usd": {
    type: "string",
    value: "<usd>",
    help: "dollars for the whole session before the agent is stopped",
  },
  "repo-map": {
    type: "string",
    value: "on|off",
    help: "offer the repo_map tool (tree-sitter definitions ranked by references)",
    default: "on",
  },
  sandbox: SANDBOX,
} as const;

export const AGENT_TRUST_OPTIONS = {
  repo: { type: "string", value: "<dir>", help: "the repository", defaultHelp: "the current directory" },
  revoke: { type: "boolean", help: "stop trusting it" },
  list: { type: "boolean", help: "list the trusted repositories" },
} as const;

export const AGENT_HELP = `acilab agent — a coding agent on your own repository, in the sandbox, applied only when you say so

Usage: acilab agent [PROMPT] [--repo DIR]              interactive conversation (the default)
       acilab agent -p PROMPT [--output-format text|json|stream-json] [--apply]
       acilab agent --continue | --resume ID [--rewind N]   pick a saved session up
       acilab agent trust [--repo DIR] [--revoke | --list]  let a repository's own hooks run

The agent works on a copy-on-write copy of your working tree; its commands run in the sandbox with no
network. Your tree is written only by --apply or your yes at the end, and only if the files the agent
changed are still as they were. Settings (permissions, hooks) are read from ~/.config/acilab/settings.json,
.acilab/settings.json and .acilab/settings.local.json in Claude Code's format; memory from AGENTS.md
(CLAUDE.md as the fallback). A repository's own hooks run only after \`acilab agent trust\`.

In the conversation: /diff /undo /rewind [N] [both] /cost /todos /compact /quit.
Exit codes: 0 the agent answered, 1 it stopped without an answer (or the apply was refused), 2 usage.

Options:
${optionLines(AGENT_OPTIONS)}

See docs/agent.md.`;

export const AGENT_TRUST_HELP = `acilab agent trust — let a repository's own hooks and allow rules be used

Usage: acilab agent trust [--repo DIR] [--revoke | --list]

A repository's .acilab/settings.json and settings.local.json may define hooks: commands that run on
your machine, outside the sandbox. They run only for repositories you trust; the decision is stored
per real path in ~/.config/acilab/trusted.json (a trusted folder's sub-folders are trusted too).

Options:
${optionLines(AGENT_TRUST_OPTIONS)}`;
