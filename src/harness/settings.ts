/**
 * Settings files, read and merged as Claude Code does, lowest precedence first: the user's own
 * (`<configDir>/settings.json`), the repository's (`.acilab/settings.json`, committed), the
 * repository's local one (`.acilab/settings.local.json`, not committed), then any `--settings FILE`.
 * Rule and hook lists concatenate; `defaultMode` comes from the highest file that sets it.
 *
 * A repository is someone else's code until the user trusts it: its files' hooks would run on the
 * host and its allow rules would loosen the gate, so both are dropped for an untrusted repository
 * (and counted, so the CLI can say so). Its deny and ask rules always apply — they only make things
 * stricter — and so does a `plan` default mode; a looser default mode is dropped like an allow rule.
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { defaultConfigDir } from "./config-dir.js";
import { jsonErrorPosition, jsonErrorText } from "./json-position.js";
import { type PermissionMode, parseRule, type Rule, type Scope } from "./rules.js";
import { describeIssue, SettingsError, SettingsFileSchema } from "./settings-schema.js";
import { HOOK_EVENTS, type HookEvent } from "./types.js";

/** Claude Code's default hook timeout: long enough for a linter or a test file, short of a hang. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

export interface HookSpec {
  event: HookEvent;
  /** Absent or "*" = every tool (or source, for SessionStart). */
  matcher?: string;
  command: string;
  timeoutMs: number;
  source: string;
  scope: Scope;
}

/** One settings file, parsed: what it contributes before merging. */
export interface SettingsPart {
  file: string;
  scope: Scope;
  rules: Rule[];
  hooks: HookSpec[];
  defaultMode?: PermissionMode;
  disableBypass?: boolean;
}

export interface Settings {
  /** The repository these settings were loaded for. */
  repo: string;
  rules: Rule[];
  defaultMode?: PermissionMode;
  /** A file said `disableBypassPermissionsMode: "disable"`: bypassPermissions is refused. */
  disableBypass?: boolean;
  hooks: HookSpec[];
  /** The files that existed and were read, lowest precedence first. */
  files: string[];
  /** What an untrusted repository's files asked for and did not get; absent when nothing was dropped. */
  untrusted?: { hooks: number; allows: number; defaultMode?: PermissionMode; files: string[] };
}

/** A settings file's project root, for `/x` patterns: the folder holding `.acilab/`, else the file's folder. */
export function projectRootOf(file: string): string {
  const dir = dirname(resolve(file));
  return basename(dir) === ".acilab" ? dirname(dir) : dir;
}

/** Parse one file's text. Throws SettingsError (JSON or shape, with where) or RuleSyntaxError. */
export function parseSettings(
  text: string,
  file: string,
  scope: Scope,
  root = projectRootOf(file),
): SettingsPart {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const at = jsonErrorPosition(text, error);
    throw new SettingsError(
      file,
      `not valid JSON (${jsonErrorText(error)}) — fix the file${at ? ` at line ${at.line}, column ${at.column}` : ""} or remove it`,
      at ? `${at.line}:${at.column}` : undefined,
    );
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new SettingsError(
      file,
      'a settings file is a JSON object, e.g. {"permissions": {"allow": ["Bash(npm test:*)"]}}',
    );
  const parsed = SettingsFileSchema.safeParse(json);
  if (!parsed.success) throw new SettingsError(file, describeIssue(parsed.error.issues[0]!));
  const { permissions, hooks } = parsed.data;
  const rules: Rule[] = [];
  for (const behavior of ["deny", "ask", "allow"] as const)
    for (const text of permissions?.[behavior] ?? [])
      rules.push({ behavior, rule: parseRule(text, file), text: text.trim(), source: file, scope, root });
  const specs: HookSpec[] = [];
  for (const event of HOOK_EVENTS)
    (hooks?.[event] ?? []).forEach((entry, i) => {
      const matcher = entry.matcher;
      if (matcher !== undefined) checkMatcher(matcher, file, `hooks.${event}[${i}].matcher`);
      for (const hook of entry.hooks)
        specs.push({
          event,
          ...(matcher !== undefined ? { matcher } : {}),
          command: hook.command,
          timeoutMs: (hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000,
          source: file,
          scope,
        });
    });
  const mode = permissions?.defaultMode;
  return {
    file,
    scope,
    rules,
    hooks: specs,
    ...(mode ? { defaultMode: mode } : {}),
    ...(permissions?.disableBypassPermissionsMode === "disable" ? { disableBypass: true } : {}),
  };
}

function checkMatcher(matcher: string, file: string, where: string): void {
  try {
    new RegExp(`^(?:${matcher})$`);
  } catch (error) {
    throw new SettingsError(
      file,
      `${where}: ${JSON.stringify(matcher)} is not a valid regular expression (${(error as Error).message}) — a matcher is a tool name or a regex over tool names, e.g. "Bash" or "Edit|Write"`,
    );
  }
}

/** Modes that only make the gate stricter, which an untrusted repository may still set. */
const STRICT_MODES: ReadonlySet<PermissionMode> = new Set(["default", "plan"]);

/** Merge parsed files (lowest precedence first), dropping what an untrusted repository may not grant. */
export function mergeSettings(repo: string, parts: readonly SettingsPart[], trusted: boolean): Settings {
  const out: Settings = { repo, rules: [], hooks: [], files: parts.map((p) => p.file) };
  const dropped = {
    hooks: 0,
    allows: 0,
    defaultMode: undefined as PermissionMode | undefined,
    files: [] as string[],
  };
  for (const part of parts) {
    const guarded = !trusted && (part.scope === "project" || part.scope === "local");
    const allows = guarded ? part.rules.filter((r) => r.behavior === "allow").length : 0;
    const hooks = guarded ? part.hooks.length : 0;
    const looseMode = guarded && part.defaultMode !== undefined && !STRICT_MODES.has(part.defaultMode);
    out.rules.push(...(guarded ? part.rules.filter((r) => r.behavior !== "allow") : part.rules));
    if (!guarded) out.hooks.push(...part.hooks);
    if (part.defaultMode !== undefined && !looseMode) out.defaultMode = part.defaultMode;
    // Any file may forbid bypassPermissions, trusted or not: it only makes things stricter.
    if (part.disableBypass) out.disableBypass = true;
    if (looseMode) dropped.defaultMode = part.defaultMode;
    if (allows + hooks > 0 || looseMode) {
      dropped.allows += allows;
      dropped.hooks += hooks;
      dropped.files.push(part.file);
    }
  }
  if (dropped.files.length > 0)
    out.untrusted = {
      hooks: dropped.hooks,
      allows: dropped.allows,
      ...(dropped.defaultMode ? { defaultMode: dropped.defaultMode } : {}),
      files: dropped.files,
    };
  return out;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * What the CLI says when an untrusted repository's settings were held back, or undefined when
 * nothing was: "this repository's .acilab/settings.json defines 2 hooks; they did not run — …".
 */
export function untrustedNotice(settings: Pick<Settings, "repo" | "untrusted">): string | undefined {
  const u = settings.untrusted;
  if (!u) return undefined;
  const files = u.files.map((f) => relative(settings.repo, f) || f).join(" and ");
  const what = [
    u.hooks > 0 ? plural(u.hooks, "hook") : "",
    u.allows > 0 ? plural(u.allows, "allow rule") : "",
    u.defaultMode ? `defaultMode ${u.defaultMode}` : "",
  ].filter(Boolean);
  const list = what.length > 1 ? `${what.slice(0, -1).join(", ")} and ${what.at(-1)}` : what[0];
  return `this repository's ${files} ${u.files.length > 1 ? "define" : "defines"} ${list}; they were not used because the repository is not trusted — run \`acilab agent trust\` in it to allow them`;
}

export interface LoadSettingsOptions {
  repo: string;
  /** Where the user's settings.json lives; default `defaultConfigDir()`; null = no user file (task runs). */
  configDir?: string | null;
  /** `--settings FILE`, in the order given (later wins); these must exist. */
  settingsFiles?: readonly string[];
  /** Whether the user trusts `repo` (TrustStore.isTrusted). */
  trusted: boolean;
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SettingsError(
      file,
      `cannot be read (${(error as Error).message}) — fix its permissions or remove it`,
    );
  }
}

/** Read every settings file that exists for `repo`, parse each and merge them. */
export async function loadSettings(options: LoadSettingsOptions): Promise<Settings> {
  const repo = resolve(options.repo);
  const configDir = options.configDir === undefined ? defaultConfigDir() : options.configDir;
  const candidates: Array<{ file: string; scope: Scope; required: boolean }> = [
    ...(configDir === null
      ? []
      : [{ file: join(configDir, "settings.json"), scope: "user" as const, required: false }]),
    { file: join(repo, ".acilab", "settings.json"), scope: "project", required: false },
    { file: join(repo, ".acilab", "settings.local.json"), scope: "local", required: false },
    ...(options.settingsFiles ?? []).map((f) => ({
      file: resolve(f),
      scope: "flag" as const,
      required: true,
    })),
  ];
  const parts: SettingsPart[] = [];
  for (const { file, scope, required } of candidates) {
    const text = await readIfPresent(file);
    if (text === undefined) {
      if (required) throw new SettingsError(file, "not found — check the path given to --settings");
      continue;
    }
    // The repository's own files are anchored at the repository, wherever `.acilab` sits.
    const root = scope === "project" || scope === "local" ? repo : projectRootOf(file);
    parts.push(parseSettings(text, file, scope, root));
  }
  return mergeSettings(repo, parts, options.trusted);
}
