import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Ledger } from "../ledger/index.js";
import { ScriptedPolicy, ScriptFile } from "../policies/index.js";
import { ProcessSandbox } from "../sandbox/index.js";
import { HANG_GUARD_MS } from "../testing/time.js";
import { newEditorState, type ToolContext, toolset } from "../tools/index.js";
import { createTaskTool, SUBAGENT_MAX_STEPS, subagentTools } from "./subagent.js";

let ws: string;
let sandbox: ProcessSandbox;
beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), "acilab-subagent-"));
  writeFileSync(join(ws, "retry.py"), "MAX_RETRIES = 5\n");
  sandbox = new ProcessSandbox({ workspace: ws });
});
afterEach(async () => {
  await sandbox.close();
  rmSync(ws, { recursive: true, force: true });
});

const context = (): ToolContext => ({
  root: ws,
  sandbox,
  editor: newEditorState(),
  testCommand: undefined,
  commandTimeoutMs: HANG_GUARD_MS,
});

function taskTool(turns: unknown[], ledger: Ledger, trajectoryDir?: string) {
  const policy = new ScriptedPolicy("scripted:sub", ScriptFile.parse({ turns }));
  return createTaskTool({
    policy,
    ledger,
    tools: toolset("full-shell").tools,
    ...(trajectoryDir ? { trajectoryDir } : {}),
  });
}

describe("the task tool's subagent", () => {
  it("gets the read tools only: no edits, no shell, no submit, never task itself", () => {
    const names = subagentTools(toolset("full-shell").tools).map((t) => t.name);
    expect(names).toContain("view");
    expect(names).toContain("grep");
    for (const forbidden of ["str_replace", "shell", "submit", "run_tests", "create_file"])
      expect(names).not.toContain(forbidden);
  });

  it("answers from its own context, its spend in the ledger under its own name, its turns on disk", async () => {
    const ledger = new Ledger();
    const dir = join(ws, "not", "there", "yet");
    const tool = taskTool(
      [
        { tool: "view", input: { path: "retry.py" } },
        // An edit is not among its tools: the call fails and the subagent goes on.
        { tool: "str_replace", input: { path: "retry.py", old: "5", new: "6" } },
        { say: "MAX_RETRIES is 5, in retry.py line 1." },
      ],
      ledger,
      dir,
    );
    const result = await tool.execute(
      { description: "find retries", prompt: "Where is the retry count?" },
      context(),
    );
    expect(result.error).toBeUndefined();
    expect(result.output).toMatch(/^MAX_RETRIES is 5, in retry\.py line 1\.\n\[task-1: 3 step\(s\)/);
    expect(readFileSync(join(ws, "retry.py"), "utf8")).toBe("MAX_RETRIES = 5\n");
    expect(ledger.byAgent().find((s) => s.agent === "task-1")?.requests).toBe(3);
    expect(existsSync(join(dir, "task-1.jsonl"))).toBe(true);
    expect(readFileSync(join(dir, "task-1.jsonl"), "utf8")).toMatch(/unknown_tool/);
  });

  it("stops at its step cap and says so instead of answering", async () => {
    const ledger = new Ledger();
    const turns = Array.from({ length: SUBAGENT_MAX_STEPS + 2 }, () => ({
      tool: "view",
      input: { path: "retry.py" },
    }));
    const result = await taskTool(turns, ledger).execute(
      { description: "loop", prompt: "look forever" },
      context(),
    );
    expect(result.error).toBe("command_failed");
    expect(result.output).toMatch(/stopped without an answer \(step_limit/);
  });
});
