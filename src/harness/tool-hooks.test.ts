/**
 * What a hook reads on stdin about a call, checked against Claude Code's documented PreToolUse and
 * PostToolUse input: `tool_name` is Claude Code's (Bash, Read, Edit, Write, Grep, Glob …), its
 * `tool_input` has Claude Code's field names (`command`, `file_path`, `old_string`, `new_string`,
 * `content`), and acilab's own name rides along as `acilab_tool_name`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookRunner } from "./hooks.js";
import type { HookSpec } from "./settings.js";
import { preToolUse, withPostToolUse } from "./tool-hooks.js";
import { claudeCall } from "./tool-names.js";

let repo: string;
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "acilab-tool-hooks-"));
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

const payload = (extra: Record<string, unknown>) => ({
  session_id: "s1",
  transcript_path: "/t.jsonl",
  cwd: repo,
  permission_mode: "default",
  ...extra,
});

function hook(command: string, event: HookSpec["event"] = "PreToolUse", matcher?: string): HookSpec {
  return {
    event,
    command,
    timeoutMs: 60_000,
    source: "/s.json",
    scope: "user",
    ...(matcher !== undefined ? { matcher } : {}),
  };
}

describe("claudeCall", () => {
  it("names each acilab tool as Claude Code does, keeping acilab's name beside it", () => {
    const names = ["shell", "view", "read_file", "str_replace", "create_file", "write_file", "grep", "glob"];
    expect(names.map((n) => claudeCall(n, {}).tool_name)).toEqual([
      "Bash",
      "Read",
      "Read",
      "Edit",
      "Write",
      "Write",
      "Grep",
      "Glob",
    ]);
    expect(claudeCall("submit", {})).toEqual({
      tool_name: "submit",
      acilab_tool_name: "submit",
      tool_input: {},
    });
  });

  it("adds Claude Code's input fields: file_path (absolute), old_string and new_string", () => {
    expect(claudeCall("str_replace", { path: "src/a.py", old: "x", new: "y" }, "/repo").tool_input).toEqual({
      path: "src/a.py",
      old: "x",
      new: "y",
      file_path: "/repo/src/a.py",
      old_string: "x",
      new_string: "y",
    });
    expect(claudeCall("create_file", { path: "/repo/b.py", content: "z" }, "/repo").tool_input).toEqual({
      path: "/repo/b.py",
      content: "z",
      file_path: "/repo/b.py",
    });
    // A search's path is a folder, as in Claude Code's Grep: no file_path.
    expect(claudeCall("grep", { pattern: "def", path: "src" }, "/repo").tool_input).toEqual({
      pattern: "def",
      path: "src",
    });
    expect(claudeCall("shell", { command: "ls" }).tool_input).toEqual({ command: "ls" });
    // A program runs as Bash does: a hook reading tool_input.command sees what will run.
    expect(claudeCall("run_code", { language: "python", code: "print(1)" })).toEqual({
      tool_name: "Bash",
      acilab_tool_name: "run_code",
      tool_input: { language: "python", code: "print(1)", command: "print(1)" },
    });
  });
});

describe("the hooks' stdin in a run", () => {
  it('lets a PreToolUse hook that checks tool_name == "Bash" on stdin block a shell command', async () => {
    // Written as for Claude Code: no matcher, the hook looks at the payload itself.
    const script = `python3 -c 'import json, sys; call = json.load(sys.stdin); call["tool_name"] == "Bash" and (print("no Bash here", file=sys.stderr), sys.exit(2))'`;
    const hooks = createHookRunner({ hooks: [hook(script)], repo });
    const ask = preToolUse(hooks, payload, () => {});
    expect(await ask("shell", { command: "ls" })).toEqual({ block: "no Bash here" });
    expect(await ask("view", { path: "a.py" })).toEqual({});
  });

  it("gives PreToolUse and PostToolUse hooks Claude Code's fields, and acilab's name", async () => {
    const hooks = createHookRunner({
      hooks: [hook("cat > pre.json"), hook("cat > post.json", "PostToolUse", "Edit")],
      repo,
    });
    await preToolUse(hooks, payload, () => {})("str_replace", { path: "a.py", old: "1", new: "2" });
    const pre = JSON.parse(readFileSync(join(repo, "pre.json"), "utf8"));
    expect(pre).toMatchObject({
      hook_event_name: "PreToolUse",
      session_id: "s1",
      cwd: repo,
      permission_mode: "default",
      tool_name: "Edit",
      acilab_tool_name: "str_replace",
      tool_input: { file_path: join(repo, "a.py"), old_string: "1", new_string: "2" },
    });
    const [tool] = withPostToolUse(
      [
        {
          name: "str_replace",
          description: "",
          kind: "edit",
          schema: undefined as never,
          execute: async () => ({ output: "ok: replaced" }),
        },
      ],
      hooks,
      payload,
      () => {},
    );
    await tool?.execute({ path: "a.py", old: "1", new: "2" }, undefined as never);
    const post = JSON.parse(readFileSync(join(repo, "post.json"), "utf8"));
    expect(post).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      acilab_tool_name: "str_replace",
      tool_response: { output: "ok: replaced", error: null },
    });
  });
});
