import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { ProcessSandbox } from "../sandbox/index.js";
import { HANG_GUARD_MS } from "../testing/time.js";
import { defineTool, newEditorState, ToolRegistry } from "../tools/index.js";
import { RECORDED_CALL_CHARS } from "../trajectory/index.js";
import { executeCalls } from "./actions.js";
import { ChangeTracker } from "./changes.js";

const root = mkdtempSync(join(tmpdir(), "acilab-actions-"));
const sandbox = new ProcessSandbox({ workspace: root });
afterAll(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

it("the trajectory keeps a program's nested calls capped, whatever the tool handed back", async () => {
  // A tool that reports nested calls without capping them itself (as run_code does before the loop).
  const program = defineTool({
    name: "program",
    description: "Reports two nested calls.",
    kind: "read",
    schema: z.object({}),
    async execute() {
      return {
        output: "done",
        calls: [
          { tool: "view", input: { path: "a" }, output: "v".repeat(80_000), error: null, duration_ms: 2 },
          { tool: "write", input: { text: "w".repeat(80_000) }, output: "ok", error: null, duration_ms: 1 },
        ],
      };
    },
  });
  const { actions } = await executeCalls(
    { role: "assistant", content: "", toolCalls: [{ id: "1", name: "program", input: {} }] },
    new ToolRegistry([program]),
    { root, sandbox, editor: newEditorState(), testCommand: undefined, commandTimeoutMs: HANG_GUARD_MS },
    { changes: new ChangeTracker(root) },
  );
  const [view, write] = actions[0]?.calls ?? [];
  expect(actions[0]?.observation).toBe("done"); // what the model read is kept whole
  expect(view?.output.length).toBeLessThanOrEqual(RECORDED_CALL_CHARS);
  expect(view?.output).toMatch(/ … \[7\d,\d{3} characters cut\] … /);
  expect(view?.input).toEqual({ path: "a" });
  expect(write?.input).toMatch(/^\{"text":"w+ … \[7\d,\d{3} characters cut\] … w+"\}$/);
  expect(JSON.stringify(actions).length).toBeLessThan(3 * RECORDED_CALL_CHARS);
});

it("runs at most maxCalls calls of a reply and answers the rest as not run", async () => {
  const ran: string[] = [];
  const note = defineTool({
    name: "note",
    description: "Notes its id.",
    kind: "read",
    schema: z.object({ id: z.string() }),
    async execute({ id }) {
      ran.push(id);
      return { output: `ok ${id}` };
    },
  });
  const calls = ["a", "b", "c"].map((id) => ({ id, name: "note", input: { id } }));
  const executed = await executeCalls(
    { role: "assistant", content: "", toolCalls: calls },
    new ToolRegistry([note]),
    { root, sandbox, editor: newEditorState(), testCommand: undefined, commandTimeoutMs: HANG_GUARD_MS },
    { maxCalls: 1 },
  );
  expect(ran).toEqual(["a"]);
  expect(executed.ran).toBe(1);
  expect(executed.results.map((r) => r.output)).toEqual(["ok a"]);
  expect(executed.actions.map((a) => a.observation)).toEqual([
    "ok a",
    "not run: one action per turn, and only the first call of your reply was run.",
    "not run: one action per turn, and only the first call of your reply was run.",
  ]);
});
