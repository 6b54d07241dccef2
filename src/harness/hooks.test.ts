import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processesWith } from "../testing/processes.js";
import { EVENTUALLY, startedBeforeTimeout } from "../testing/time.js";
import { combineOutcomes, createHookRunner, hookMatches, interpretHook } from "./hooks.js";
import type { HookSpec } from "./settings.js";
import type { HookEvent } from "./types.js";

let repo: string;
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "acilab-hooks-"));
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  // What a failing leak test left running, killed by pid.
  for (const tag of ["sleep 300.4711", "sleep 300.4712", "sleep 300.4713"])
    for (const pid of processesWith(tag)) process.kill(pid, "SIGKILL");
});

function spec(command: string, extra: Partial<HookSpec> = {}): HookSpec {
  return { event: "PreToolUse", command, timeoutMs: 60_000, source: "/s.json", scope: "user", ...extra };
}

const shellCall = { tool_name: "shell", tool_input: { command: "npm test" }, session_id: "s1" };

describe("createHookRunner: real hooks under sh", () => {
  it("gives the hook the payload with hook_event_name on stdin, in the repository, with the project dir", async () => {
    const run = createHookRunner({
      hooks: [
        spec(
          'cat > payload.json; echo "$CLAUDE_PROJECT_DIR|$ACILAB_PROJECT_DIR|$SESSION_X|$(pwd)" > env.txt',
        ),
      ],
      repo,
      sessionEnv: { SESSION_X: "x1" },
    });
    expect(await run("PreToolUse", shellCall)).toEqual({ errors: [] });
    expect(JSON.parse(readFileSync(join(repo, "payload.json"), "utf8"))).toEqual({
      ...shellCall,
      hook_event_name: "PreToolUse",
    });
    expect(readFileSync(join(repo, "env.txt"), "utf8").trim()).toBe(`${repo}|${repo}|x1|${repo}`);
  });

  it("reads an allow decision from JSON on stdout", async () => {
    const json = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "ok'd",
      },
    });
    const run = createHookRunner({
      hooks: [spec(`cat >/dev/null; printf '%s' '${json.replace(/'/g, "'\\''")}'`)],
      repo,
    });
    expect(await run("PreToolUse", shellCall)).toEqual({ decision: "allow", reason: "ok'd", errors: [] });
  });

  it("exit 2 blocks, with stderr as the reason", async () => {
    const run = createHookRunner({ hooks: [spec("echo 'no tests on Fridays' >&2; exit 2")], repo });
    expect(await run("PreToolUse", shellCall)).toEqual({ block: "no tests on Fridays", errors: [] });
  });

  it("garbage JSON is an error and blocks nothing", async () => {
    const run = createHookRunner({ hooks: [spec(`echo '{"decision": "block",'`)], repo });
    const outcome = await run("PreToolUse", shellCall);
    expect(outcome.block).toBeUndefined();
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toMatch(/^hook `echo '\{"decision": "block",'` printed invalid JSON: /);
  });

  it("exit 3 is the hook's own failure: an error with the code and stderr's first line, nothing blocked", async () => {
    const run = createHookRunner({ hooks: [spec("echo 'lint crashed' >&2; echo more >&2; exit 3")], repo });
    const outcome = await run("PreToolUse", shellCall);
    expect(outcome).toEqual({
      errors: ["hook `echo 'lint crashed' >&2; echo more >&2; exit 3` exited 3: lint crashed"],
    });
  });

  it("a hung hook is killed with its whole process group after its timeout, and the run goes on", async () => {
    const started = join(repo, "started");
    const outcome = await startedBeforeTimeout(
      1000,
      (timeoutMs) => {
        rmSync(started, { force: true });
        const command = `sleep 300.4711 >/dev/null 2>&1 & echo up > ${started}; sleep 300.4712`;
        return createHookRunner({ hooks: [spec(command, { timeoutMs })], repo })("PreToolUse", shellCall);
      },
      () => existsSync(started),
    );
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toMatch(/^hook `sleep 300\.4711 .*` timed out after \d+s and was killed$/);
    expect(outcome.block).toBeUndefined();
    await expect
      .poll(() => [...processesWith("sleep 300.4711"), ...processesWith("sleep 300.4712")], EVENTUALLY)
      .toEqual([]);
  });

  it("a hook that exits leaves nothing running behind it", async () => {
    const run = createHookRunner({ hooks: [spec("sleep 300.4713 >/dev/null 2>&1 & echo '{}'")], repo });
    expect(await run("PreToolUse", shellCall)).toEqual({ errors: [] });
    await expect.poll(() => processesWith("sleep 300.4713"), EVENTUALLY).toEqual([]);
  });

  it("runs an event's hooks in parallel and combines them: any block wins, deny beats allow, context joins", async () => {
    const allow = JSON.stringify({
      hookSpecificOutput: { permissionDecision: "allow", additionalContext: "one" },
    });
    const deny = JSON.stringify({
      hookSpecificOutput: {
        permissionDecision: "deny",
        permissionDecisionReason: "not that",
        additionalContext: "two",
      },
    });
    // Each waits for the other's marker: they finish only if they run at the same time.
    const hooks = [
      spec(`touch a; while [ ! -e b ]; do sleep 0.01; done; echo '${allow}'`),
      spec(`touch b; while [ ! -e a ]; do sleep 0.01; done; echo '${deny}'`),
      spec("echo 'bad' >&2; exit 5"),
    ];
    const outcome = await createHookRunner({ hooks, repo })("PreToolUse", shellCall);
    expect(outcome).toEqual({
      block: "not that",
      decision: "deny",
      reason: "not that",
      additionalContext: "one\ntwo",
      errors: ["hook `echo 'bad' >&2; exit 5` exited 5: bad"],
    });
  });

  it("runs only hooks whose matcher fits, by acilab name or Claude Code alias", async () => {
    const hooks = [
      spec("echo bash >> ran", { matcher: "Bash" }),
      spec("echo edits >> ran", { matcher: "Edit|Write" }),
      spec("echo shell >> ran", { matcher: "shell" }),
      spec("echo all >> ran", { matcher: "*" }),
      spec("echo none >> ran", { matcher: "Read" }),
    ];
    await createHookRunner({ hooks, repo })("PreToolUse", shellCall);
    expect(readFileSync(join(repo, "ran"), "utf8").split("\n").filter(Boolean).sort()).toEqual([
      "all",
      "bash",
      "shell",
    ]);
  });

  it("UserPromptSubmit's plain stdout is context for the model", async () => {
    const hooks = [spec("echo 'branch: main'", { event: "UserPromptSubmit" })];
    expect(await createHookRunner({ hooks, repo })("UserPromptSubmit", { prompt: "hi" })).toEqual({
      additionalContext: "branch: main",
      errors: [],
    });
  });

  it("with no matching hook, runs nothing", async () => {
    expect(await createHookRunner({ hooks: [spec("exit 2")], repo })("Stop", {})).toEqual({ errors: [] });
  });
});

describe("hookMatches", () => {
  const match = (matcher: string | undefined, event: HookEvent, payload: Record<string, unknown>) =>
    hookMatches(spec("x", { event, ...(matcher !== undefined ? { matcher } : {}) }), event, payload);

  it("anchors the regex: Bash does not match a tool merely containing it", () => {
    expect(match("Bash", "PreToolUse", { tool_name: "shell" })).toBe(true);
    expect(match("Bas", "PreToolUse", { tool_name: "shell" })).toBe(false);
    expect(match("Edit|Write", "PostToolUse", { tool_name: "str_replace" })).toBe(true);
    expect(match("Read", "PostToolUse", { tool_name: "str_replace" })).toBe(false);
    expect(match("", "PreToolUse", { tool_name: "anything" })).toBe(true);
    expect(match(undefined, "PreToolUse", { tool_name: "anything" })).toBe(true);
  });

  it("SessionStart matches its source; other events ignore matchers; other events' hooks never run", () => {
    expect(match("startup", "SessionStart", { source: "startup" })).toBe(true);
    expect(match("resume", "SessionStart", { source: "startup" })).toBe(false);
    expect(match("Bash", "Stop", {})).toBe(true);
    expect(hookMatches(spec("x", { event: "Stop" }), "PreToolUse", { tool_name: "shell" })).toBe(false);
  });
});

describe("interpretHook: the protocol, case by case", () => {
  const ok = (stdout: string, event: HookEvent = "PreToolUse") =>
    interpretHook(
      event,
      { command: "h", timeoutMs: 1000 },
      { code: 0, signal: null, stdout, stderr: "", timedOut: false },
    );

  it("reads decision block/approve, permissionDecision, additionalContext and continue: false", () => {
    expect(ok('{"decision": "block", "reason": "fix lint first"}', "PostToolUse")).toEqual({
      block: "fix lint first",
      errors: [],
    });
    expect(ok('{"decision": "approve", "reason": "safe"}')).toEqual({
      decision: "allow",
      reason: "safe",
      errors: [],
    });
    expect(ok('{"hookSpecificOutput": {"permissionDecision": "ask"}}')).toEqual({
      decision: "ask",
      errors: [],
    });
    expect(ok('{"hookSpecificOutput": {"permissionDecision": "deny"}}')).toEqual({
      decision: "deny",
      block: "denied by hook `h`",
      errors: [],
    });
    expect(ok('{"continue": false, "stopReason": "budget spent"}', "Stop")).toEqual({
      block: "budget spent",
      errors: [],
    });
    expect(ok('{"hookSpecificOutput": {"additionalContext": "note"}}', "SessionStart")).toEqual({
      additionalContext: "note",
      errors: [],
    });
  });

  it("ignores plain stdout except for UserPromptSubmit and SessionStart", () => {
    expect(ok("hello")).toEqual({ errors: [] });
    expect(ok("hello", "SessionStart")).toEqual({ additionalContext: "hello", errors: [] });
  });

  it("exit 2 with empty stderr still blocks, saying so; a signal or a failed start is an error", () => {
    const run = { signal: null, stdout: "", stderr: "", timedOut: false };
    expect(interpretHook("Stop", { command: "h", timeoutMs: 1 }, { ...run, code: 2 })).toEqual({
      block: "hook `h` exited 2",
      errors: [],
    });
    expect(
      interpretHook("Stop", { command: "h", timeoutMs: 1 }, { ...run, code: null, signal: "SIGTERM" }).errors,
    ).toEqual(["hook `h` was killed by SIGTERM"]);
    expect(
      interpretHook("Stop", { command: "h", timeoutMs: 1 }, { ...run, code: null, spawnError: "ENOENT" })
        .errors,
    ).toEqual(["hook `h` could not start: ENOENT"]);
  });

  it("combines blocks, the strictest decision and every error", () => {
    expect(
      combineOutcomes([
        { block: "a", errors: ["e1"] },
        { decision: "ask", reason: "r-ask", errors: [] },
        { decision: "allow", reason: "r-allow", block: "b", errors: ["e2"] },
      ]),
    ).toEqual({ block: "a\nb", decision: "ask", reason: "r-ask", errors: ["e1", "e2"] });
  });
});
