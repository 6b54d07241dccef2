/**
 * `acilab agent`'s composition root: from the command line's choices to a ready conversation — the
 * settings (and whether this repository is trusted to run its own hooks), the memory files, the
 * policy, the workspace (for a resumed session: a fresh snapshot with the saved changes put back),
 * the tools and the session. Front ends (the terminal, `-p`) only drive what this returns.
 */
import { existsSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  contextWindowOf,
  createHookRunner,
  defaultConfigDir,
  hookCount,
  loadMemoryFiles,
  loadSettings,
  type PermissionMode,
  parseRule,
  permissionRules,
  type Rule,
  TrustStore,
  untrustedNotice,
} from "../harness/index.js";
import { FREE_POLICIES, Ledger } from "../ledger/index.js";
import { makePolicy, type Policy, resolveAutoPolicy } from "../policies/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import { ToolRegistry } from "../tools/index.js";
import { AGENT_MAX_OUTPUT_TOKENS, Conversation } from "./conversation.js";
import type { AgentEvents } from "./events.js";
import { PrefetchPolicy } from "./prefetch.js";
import { defaultStateDir, type Session, SessionError, SessionStore } from "./sessions.js";
import { agentTools } from "./tools.js";
import { type AgentWorkspace, checkRepo, openAgentWorkspace } from "./workspace.js";

const SYSTEM_PROMPT = readFileSync(new URL("./agent-system-prompt.txt", import.meta.url), "utf8");

export type SessionChoice = { kind: "new" } | { kind: "continue" } | { kind: "resume"; id: string };

export interface AgentStartOptions {
  repo: string;
  /** Where the user is inside the repository: the nearest AGENTS.md to it wins. */
  cwd?: string;
  policySpec: string;
  /** The --permission-mode flag; absent = the settings' defaultMode, else "default". */
  permissionMode?: PermissionMode;
  settingsFiles: readonly string[];
  /** --allowed-tools / --disallowed-tools: rules given on the command line (Claude Code's syntax). */
  allowRules?: readonly string[];
  denyRules?: readonly string[];
  session: SessionChoice;
  interactive: boolean;
  maxTurns?: number;
  maxBudgetUsd?: number;
  repoMap?: boolean;
  /** `-p`'s prompt: its first request goes out while the workspace is prepared (prefetch.ts). */
  prefetchPrompt?: string;
  /** The model's context window, when its name does not say (compaction starts near it). */
  contextTokens?: number;
  backend?: BackendChoice;
  stateDir?: string;
  configDir?: string;
  signal?: AbortSignal;
}

export interface AgentStart {
  conversation: Conversation;
  workspace: AgentWorkspace;
  session: Session;
  ledger: Ledger;
  policy: PrefetchPolicy;
  permissionMode: PermissionMode;
  /** What the user should know before the first turn: skipped hooks, memory warnings, weak sandbox. */
  notices: string[];
  resumed: boolean;
  dispose(): Promise<void>;
}

/** A policy for a conversation: a model, or a script; `auto` without a key has nothing to run. */
export function agentPolicy(spec: string): Policy {
  const resolved = spec === "auto" ? resolveAutoPolicy().spec : spec;
  if (resolved === "scripted")
    throw new SessionError(
      "acilab agent needs a model: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --policy anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or scripted:FILE",
    );
  return makePolicy(resolved);
}

export async function startAgent(o: AgentStartOptions, events: AgentEvents): Promise<AgentStart> {
  const repo = checkRepo(o.repo);
  const configDir = o.configDir ?? defaultConfigDir();
  const store = new SessionStore(join(o.stateDir ?? defaultStateDir(), "sessions"));
  const trusted = new TrustStore(configDir).isTrusted(repo);
  const settings = await loadSettings({ repo, configDir, settingsFiles: o.settingsFiles, trusted });
  const notices: string[] = [];
  const skipped = untrustedNotice(settings);
  if (skipped) notices.push(skipped);
  const flagRules = [
    ...(o.allowRules ?? []).map((text) => flagRule("allow", text, repo)),
    ...(o.denyRules ?? []).map((text) => flagRule("deny", text, repo)),
  ];
  const mode: PermissionMode = o.permissionMode ?? settings.defaultMode ?? "default";
  if (mode === "bypassPermissions" && settings.disableBypass)
    throw new SessionError(
      `bypassPermissions is disabled by disableBypassPermissionsMode in ${settings.files.join(", ")}; use --permission-mode acceptEdits or allow rules`,
    );
  const cwd = o.cwd !== undefined && existsSync(o.cwd) ? realpathSync(o.cwd) : undefined;
  const inside = cwd !== undefined && (cwd === repo || cwd.startsWith(`${repo}/`));
  const memory = loadMemoryFiles({ repo, userDir: configDir, ...(inside ? { cwd } : {}) });
  notices.push(...memory.warnings);
  const ledger = new Ledger({ prices: FREE_POLICIES });
  const policy = new PrefetchPolicy(agentPolicy(o.policySpec), ledger);
  const previous = openPrevious(store, repo, o.session);
  const session = previous ?? store.create(repo, policy.spec, "");
  const tools = agentTools({
    policy,
    ledger,
    memory: memory.text,
    subagentDir: join(session.dir, "subagents"),
    onTodos: (items) => events.todos(items),
    repoMap: o.repoMap ?? true,
    repoMapCache: repoMapCacheDir(),
  });
  // Hooks that change the first prompt or add to the conversation make the early request moot.
  if (
    o.prefetchPrompt &&
    hookCount(settings.hooks, "SessionStart") + hookCount(settings.hooks, "UserPromptSubmit") === 0
  )
    policy.prefetch({
      system: SYSTEM_PROMPT,
      tools: new ToolRegistry(tools).specs(),
      memory: memory.text,
      messages: [...session.conversation, { role: "user", content: o.prefetchPrompt }],
      maxOutputTokens: AGENT_MAX_OUTPUT_TOKENS,
    });
  let workspace: AgentWorkspace;
  try {
    workspace = await openAgentWorkspace(repo, o.backend ? { backend: o.backend } : {});
  } catch (err) {
    policy.cancel();
    if (!previous) rmSync(session.dir, { recursive: true, force: true });
    throw err;
  }
  try {
    if (workspace.sandboxWarning) notices.push(`sandbox: ${workspace.sandboxWarning}`);
    if (previous) await restorePatch(workspace, previous);
    // Relative paths in calls point into the checkout, where the tools work.
    const rules = permissionRules(
      { ...settings, rules: [...settings.rules, ...flagRules] },
      mode,
      workspace.root,
    );
    const hooks = createHookRunner({ hooks: settings.hooks, repo });
    const conversation = new Conversation({
      workspace,
      session,
      policy,
      ledger,
      events,
      tools,
      system: SYSTEM_PROMPT,
      memory: memory.text,
      rules,
      hooks,
      permissionMode: mode,
      interactive: o.interactive,
      contextTokens: o.contextTokens ?? contextWindowOf(policy.model ?? policy.spec),
      limits: {
        ...(o.maxTurns !== undefined ? { maxSteps: o.maxTurns } : {}),
        ...(o.maxBudgetUsd !== undefined ? { budgetUsd: o.maxBudgetUsd } : {}),
      },
      ...(o.signal ? { signal: o.signal } : {}),
    });
    await conversation.start(previous ? "resume" : "startup");
    return {
      conversation,
      workspace,
      session,
      ledger,
      policy,
      permissionMode: mode,
      notices,
      resumed: previous !== undefined,
      dispose: async () => {
        policy.cancel();
        await workspace.dispose();
      },
    };
  } catch (err) {
    policy.cancel();
    await workspace.dispose();
    throw err;
  }
}

/** A rule given on the command line (--allowed-tools / --disallowed-tools). */
function flagRule(behavior: "allow" | "deny", text: string, repo: string): Rule {
  const source = behavior === "allow" ? "--allowed-tools" : "--disallowed-tools";
  return { behavior, rule: parseRule(text, source), text, source, scope: "flag", root: repo };
}

function openPrevious(store: SessionStore, repo: string, choice: SessionChoice): Session | undefined {
  if (choice.kind === "new") return undefined;
  const session = choice.kind === "continue" ? store.latest(repo) : store.open(choice.id);
  if (session.meta.repo !== repo)
    throw new SessionError(
      `session ${session.id} was about ${session.meta.repo}, not ${repo}; pass --repo ${session.meta.repo} or start a new session`,
    );
  return session;
}

/**
 * A resumed session starts from the tree as it is now, with the agent's unapplied changes put back
 * in the checkout (inside the sandbox: the patch is the agent's work, and git runs there).
 */
async function restorePatch(ws: AgentWorkspace, session: Session): Promise<void> {
  const patch = session.savedPatch();
  if (patch === "" || session.meta.applied !== null) return;
  const result = await ws.sandbox.exec({
    argv: ["git", "apply", "--binary", "--whitespace=nowarn", "-"],
    stdin: patch,
    timeoutMs: 60_000,
  });
  if (result.exitCode !== 0)
    throw new SessionError(
      `the changes of session ${session.id} no longer apply to ${ws.repo} (${result.output.trim().split("\n")[0]}); they are kept in ${session.patchFile} — look at them with git apply --stat, or start a new session`,
    );
}

/** The repo map's per-file tags outlive a session: $XDG_CACHE_HOME/acilab/repo-map. */
function repoMapCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "acilab", "repo-map");
}
