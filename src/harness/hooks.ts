/**
 * Claude Code's hook protocol: each hook of an event whose matcher fits runs (in parallel) with the
 * event's JSON on stdin, and says what it wants through its exit code and stdout. Exit 2 blocks with
 * stderr as the reason; exit 0 may print a JSON object (`decision`, `hookSpecificOutput`,
 * `continue`); any other exit is the hook's own failure and blocks nothing. The outcomes of one
 * event are combined: any block wins, deny beats ask beats allow, context and errors add up.
 */
import { type HookProcessResult, runHookProcess } from "./hook-process.js";
import type { HookSpec } from "./settings.js";
import { claudeAliases } from "./tool-names.js";
import type { Behavior, HookEvent, HookOutcome, RunHooks } from "./types.js";

export interface HookRunnerOptions {
  hooks: readonly HookSpec[];
  /** The hooks' working directory and `CLAUDE_PROJECT_DIR`. */
  repo: string;
  /** Extra variables for every hook (the session's id, say). */
  sessionEnv?: Record<string, string>;
}

/** Events whose hooks' plain stdout is context for the model, as in Claude Code. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(["UserPromptSubmit", "SessionStart"]);

/** A command as messages show it: its first line, cut short. */
function shown(command: string): string {
  const line = command.split("\n")[0] ?? "";
  return line.length > 60 || line !== command ? `${line.slice(0, 60)}…` : line;
}

const compiled = new Map<string, RegExp>();
function matcherRegex(matcher: string): RegExp {
  let re = compiled.get(matcher);
  if (!re) {
    re = new RegExp(`^(?:${matcher})$`);
    compiled.set(matcher, re);
  }
  return re;
}

/**
 * Does `spec` run for this event? Tool events test the matcher against the acilab tool name
 * (`acilab_tool_name`, else `tool_name`) and its Claude Code names (`Bash` matches `shell`);
 * SessionStart's against the source (startup, resume).
 */
export function hookMatches(spec: HookSpec, event: HookEvent, payload: Record<string, unknown>): boolean {
  if (spec.event !== event) return false;
  const m = spec.matcher;
  if (m === undefined || m === "" || m === "*") return true;
  if (event === "PreToolUse" || event === "PostToolUse") {
    const tool = String(payload.acilab_tool_name ?? payload.tool_name ?? "");
    const re = matcherRegex(m);
    return [tool, ...claudeAliases(tool)].some((name) => re.test(name));
  }
  if (event === "SessionStart") return matcherRegex(m).test(String(payload.source ?? ""));
  return true;
}

/** How many hooks the specs hold for an event (all events when absent): for "2 hooks did not run". */
export function hookCount(specs: readonly HookSpec[], event?: HookEvent): number {
  return event === undefined ? specs.length : specs.filter((s) => s.event === event).length;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;

/** What a hook's JSON object asks for. */
function fromJson(json: Record<string, unknown>, cmd: string): HookOutcome {
  const out: HookOutcome = { errors: [] };
  const blocks: string[] = [];
  if (json.continue === false) blocks.push(text(json.stopReason) ?? `hook \`${cmd}\` stopped the run`);
  if (json.decision === "block") blocks.push(text(json.reason) ?? `blocked by hook \`${cmd}\``);
  if (json.decision === "approve") {
    out.decision = "allow";
    const reason = text(json.reason);
    if (reason) out.reason = reason;
  }
  const specific = json.hookSpecificOutput;
  if (isObject(specific)) {
    const d = specific.permissionDecision;
    if (d === "allow" || d === "deny" || d === "ask") {
      out.decision = d;
      const reason = text(specific.permissionDecisionReason);
      if (reason) out.reason = reason;
      else delete out.reason;
      if (d === "deny") blocks.push(reason ?? `denied by hook \`${cmd}\``);
    }
    const context = text(specific.additionalContext);
    if (context) out.additionalContext = context;
  }
  if (blocks.length > 0) out.block = blocks.join("\n");
  return out;
}

/** One hook's run, read by the protocol. Pure, so every exit and output case is tested without a shell. */
export function interpretHook(
  event: HookEvent,
  spec: Pick<HookSpec, "command" | "timeoutMs">,
  run: HookProcessResult,
): HookOutcome {
  const cmd = shown(spec.command);
  if (run.spawnError !== undefined) return { errors: [`hook \`${cmd}\` could not start: ${run.spawnError}`] };
  if (run.timedOut)
    return { errors: [`hook \`${cmd}\` timed out after ${spec.timeoutMs / 1000}s and was killed`] };
  if (run.code === 2) return { block: run.stderr.trim() || `hook \`${cmd}\` exited 2`, errors: [] };
  if (run.code !== 0) {
    const how = run.code === null ? `was killed by ${run.signal ?? "a signal"}` : `exited ${run.code}`;
    const first = run.stderr.trim().split("\n")[0];
    return { errors: [`hook \`${cmd}\` ${how}${first ? `: ${first}` : ""}`] };
  }
  const stdout = run.stdout.trim();
  if (stdout.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch (error) {
      return { errors: [`hook \`${cmd}\` printed invalid JSON: ${(error as Error).message}`] };
    }
    if (isObject(json)) return fromJson(json, cmd);
  }
  if (stdout !== "" && STDOUT_IS_CONTEXT.has(event)) return { additionalContext: stdout, errors: [] };
  return { errors: [] };
}

const RANK: Record<Behavior, number> = { allow: 1, ask: 2, deny: 3 };

/** One event's outcomes as one: any block wins (reasons joined), the strictest decision counts. */
export function combineOutcomes(outcomes: readonly HookOutcome[]): HookOutcome {
  const out: HookOutcome = { errors: outcomes.flatMap((o) => o.errors) };
  const blocks = outcomes.flatMap((o) => (o.block !== undefined ? [o.block] : []));
  if (blocks.length > 0) out.block = blocks.join("\n");
  let strictest: HookOutcome | undefined;
  for (const o of outcomes)
    if (o.decision !== undefined && (!strictest?.decision || RANK[o.decision] > RANK[strictest.decision]))
      strictest = o;
  if (strictest?.decision) {
    out.decision = strictest.decision;
    if (strictest.reason !== undefined) out.reason = strictest.reason;
  }
  const context = outcomes.flatMap((o) => (o.additionalContext !== undefined ? [o.additionalContext] : []));
  if (context.length > 0) out.additionalContext = context.join("\n");
  return out;
}

export function createHookRunner(options: HookRunnerOptions): RunHooks {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.sessionEnv,
    CLAUDE_PROJECT_DIR: options.repo,
    ACILAB_PROJECT_DIR: options.repo,
  };
  return async (event, payload) => {
    const specs = options.hooks.filter((s) => hookMatches(s, event, payload));
    if (specs.length === 0) return { errors: [] };
    const stdin = JSON.stringify({ ...payload, hook_event_name: event });
    const outcomes = await Promise.all(
      specs.map(async (spec) => {
        const run = await runHookProcess(spec.command, {
          cwd: options.repo,
          env,
          stdin,
          timeoutMs: spec.timeoutMs,
        });
        return interpretHook(event, spec, run);
      }),
    );
    return combineOutcomes(outcomes);
  };
}
