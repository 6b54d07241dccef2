/**
 * The shape of a settings file (Claude Code's `permissions` and `hooks`), and the errors that say
 * exactly where a file is wrong. Keys Claude Code has and acilab does not use (`env`, `model` …) are
 * ignored at the top level, so a user's file works unchanged; inside `permissions` and `hooks`
 * acilab knows every key, so a typo there (`alow`) is an error rather than a silently dropped rule.
 */
import { z } from "zod";
import { PERMISSION_MODES } from "./rules.js";
import { HOOK_EVENTS, type HookEvent } from "./types.js";

export class SettingsError extends Error {
  constructor(
    readonly file: string,
    message: string,
    /** `line:column`, when the problem has one place. */
    readonly at?: string,
  ) {
    super(`${file}${at ? `:${at}` : ""}: ${message}`);
    this.name = "SettingsError";
  }
}

const HookCommand = z.strictObject({
  type: z.literal("command"),
  command: z.string().min(1),
  /** Seconds, as in Claude Code. */
  timeout: z.number().positive().optional(),
});

const HookEntry = z.strictObject({
  matcher: z.string().optional(),
  hooks: z.array(HookCommand),
});

const hookShape = Object.fromEntries(HOOK_EVENTS.map((e) => [e, z.array(HookEntry).optional()])) as Record<
  HookEvent,
  z.ZodOptional<z.ZodArray<typeof HookEntry>>
>;

export const SettingsFileSchema = z.object({
  permissions: z
    .strictObject({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      defaultMode: z.enum(PERMISSION_MODES).optional(),
      // Claude Code's: "disable" refuses bypassPermissions (honoured). Extra directories are accepted
      // and unused: the agent's workspace is the repository's copy, nothing outside it.
      disableBypassPermissionsMode: z.literal("disable").optional(),
      additionalDirectories: z.array(z.string()).optional(),
    })
    .optional(),
  hooks: z.strictObject(hookShape).optional(),
});

export type SettingsFile = z.infer<typeof SettingsFileSchema>;

/** `permissions.allow[2]`: the path a user looks for in the file. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path)
    out += typeof key === "number" ? `[${key}]` : `${out === "" ? "" : "."}${String(key)}`;
  return out === "" ? "(the top level)" : out;
}

/** What belongs at a place in the file, for the "what to do" half of an error. */
function expectedAt(path: readonly PropertyKey[]): string {
  const [top, , , inner] = path;
  if (top === "permissions")
    return `"permissions" takes allow, ask and deny (lists of rules such as "Bash(npm test:*)") defaultMode (${PERMISSION_MODES.join(", ")}), disableBypassPermissionsMode ("disable") and additionalDirectories`;
  if (top === "hooks" && path.length === 1)
    return `"hooks" is keyed by event: ${HOOK_EVENTS.join(", ")} (Claude Code's other events are not raised by acilab)`;
  if (top === "hooks" && inner === "hooks")
    return `a hook is {"type": "command", "command": "…", "timeout": seconds}`;
  if (top === "hooks")
    return `an event's entry is {"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}`;
  return "see Claude Code's settings format";
}

/** The first problem zod found, as one line: where, what, and what the place takes. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = jsonPath(issue.path);
  const what =
    issue.code === "unrecognized_keys"
      ? `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`
      : issue.message;
  return `${where}: ${what} — ${expectedAt(issue.path)}; fix the file and run again`;
}
