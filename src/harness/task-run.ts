/**
 * The harness's features in a task run (`acilab run`, experiment arms), so each can be measured: the
 * memory file on or off, the plan tool, the repo map as a tool or in the prompt's prefix, and a
 * settings file's hooks and deny rules. Task runs are headless and unattended: "ask" is a denial,
 * hooks run only from a file the operator named, and the operator's own ~/.config files are never
 * read (an arm must prompt the same on every machine).
 */
import { repoMapPrefix } from "../repomap/index.js";
import type { AnyTool, PermissionHook } from "../tools/index.js";
import { makeGate } from "./gate.js";
import { createHookRunner } from "./hooks.js";
import { loadMemoryFiles } from "./memory.js";
import { permissionRules } from "./permission-rules.js";
import { createRepoMapTool } from "./repo-map-tool.js";
import { loadSettings } from "./settings.js";
import { createTodoTool } from "./todo.js";
import { preToolUse, withPostToolUse } from "./tool-hooks.js";
import { NO_HOOKS, type RunHooks } from "./types.js";

export const REPO_MAP_CHOICES = ["off", "tool", "prefix"] as const;
export type RepoMapChoice = (typeof REPO_MAP_CHOICES)[number];

/** What an arm chooses; the defaults are what task runs did before these existed. */
export interface TaskHarnessChoice {
  /** The task repository's AGENTS.md (CLAUDE.md) in the prefix (default true). */
  memory?: boolean;
  /** Offer todo_write (default false). */
  plan?: boolean;
  repoMap?: RepoMapChoice;
  /** A settings file (Claude Code's format) whose hooks and deny rules apply. */
  settings?: string;
}

export interface TaskHarness {
  /** The stable prefix's text: memory files, then the repo map when it goes there. */
  memory: string;
  /** The tool set's tools plus the harness's, with PostToolUse hooks around every one. */
  tools(base: readonly AnyTool[]): AnyTool[];
  /** The PreToolUse hooks and deny rules; absent without a settings file. */
  permission?: PermissionHook;
  /** SessionStart and UserPromptSubmit context, added to the task's prompt ("" when none). */
  promptContext(prompt: string): Promise<string>;
}

export async function taskHarness(
  root: string,
  choice: TaskHarnessChoice,
  session: { runId: string; transcriptPath?: string; notice(text: string): void },
): Promise<TaskHarness> {
  const parts: string[] = [];
  if (choice.memory !== false) {
    const loaded = loadMemoryFiles({ repo: root, userDir: null });
    for (const w of loaded.warnings) session.notice(`memory: ${w}`);
    if (loaded.text) parts.push(loaded.text);
  }
  if (choice.repoMap === "prefix") {
    const map = await repoMapPrefix(root);
    if (map) parts.push(map);
  }
  let hooks: RunHooks = NO_HOOKS;
  let permission: PermissionHook | undefined;
  const payload = (extra: Record<string, unknown>) => ({
    session_id: session.runId,
    transcript_path: session.transcriptPath ?? "",
    cwd: root,
    permission_mode: "bypassPermissions",
    ...extra,
  });
  let kinds = new Map<string, AnyTool["kind"]>();
  if (choice.settings) {
    // The file the operator named is trusted; the task repository's own .acilab files are not (their
    // deny and ask rules still apply); the operator's ~/.config settings are not read at all.
    const settings = await loadSettings({
      repo: root,
      configDir: null,
      settingsFiles: [choice.settings],
      trusted: false,
    });
    hooks = createHookRunner({ hooks: settings.hooks, repo: root });
    permission = makeGate({
      kindOf: (tool) => kinds.get(tool),
      rules: permissionRules(settings, "bypassPermissions", root),
      preToolUse: preToolUse(hooks, payload, session.notice),
      interactive: false,
    });
  }
  return {
    memory: parts.join("\n\n"),
    tools: (base) => {
      const all = [...base];
      if (choice.plan) all.push(createTodoTool());
      if (choice.repoMap === "tool") all.push(createRepoMapTool());
      kinds = new Map(all.map((t) => [t.name, t.kind]));
      return choice.settings ? withPostToolUse(all, hooks, payload, session.notice) : all;
    },
    ...(permission ? { permission } : {}),
    promptContext: async (prompt) => {
      const started = await hooks(
        "SessionStart",
        payload({ hook_event_name: "SessionStart", source: "startup" }),
      );
      const submitted = await hooks(
        "UserPromptSubmit",
        payload({ hook_event_name: "UserPromptSubmit", prompt }),
      );
      for (const e of [...started.errors, ...submitted.errors]) session.notice(e);
      return [started.additionalContext, submitted.additionalContext].filter(Boolean).join("\n\n");
    },
  };
}
