import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessSandbox } from "../../sandbox/index.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { newEditorState, type ToolContext } from "../types.js";
import { appendArgs, createShellTool, runTestsTool, SUBMIT_MARKER, shellTool, submitTool } from "./index.js";

let ws: string;
let ctx: ToolContext;
beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), "acilab-exec-"));
  ctx = {
    root: ws,
    sandbox: new ProcessSandbox({ workspace: ws }),
    editor: newEditorState(),
    testCommand: ["bash", "-c", 'echo "args:$*"; exit 1', "run_tests"],
    commandTimeoutMs: HANG_GUARD_MS,
  };
});
afterEach(async () => {
  await ctx.sandbox.close();
  rmSync(ws, { recursive: true, force: true });
});

describe("shell", () => {
  it("shows output and the exit code", async () => {
    const r = await shellTool.execute({ command: "echo hi; echo oops >&2; exit 4" }, ctx);
    expect(r.output).toBe("hi\noops\n[exit code 4]");
    expect(r.error).toBeUndefined();
  });

  it("kills a command that never ends and says what to do", async () => {
    const r = await shellTool.execute({ command: "while true; do :; done", timeout_s: 1 }, ctx);
    expect(r.error).toBe("timeout");
    expect(r.output).toMatch(/\[timed out after 1 s; the command and everything it started were killed/);
  });

  it("cuts a flood of output and says how much", async () => {
    const r = await shellTool.execute({ command: "seq 1 200000" }, ctx);
    expect(r.output.length).toBeLessThan(31_000);
    expect(r.output).toMatch(/\[\.\.\. \d+ characters cut from the middle of the output/);
    expect(r.output).toMatch(/^1\n2\n/);
    expect(r.output).toMatch(/200000\n\[exit code 0\]$/);
  });

  it("refuses interactive programs instead of hanging", async () => {
    for (const command of ["vim x.py", "git log | less", "tail -f log.txt"]) {
      const r = await shellTool.execute({ command }, ctx);
      expect(r.error).toBe("command_failed");
      expect(r.output).toMatch(/interactive/);
    }
  });

  it("submits by marker only in the bash-only arm, and only on exit 0", async () => {
    const bashOnly = createShellTool({ submitByMarker: true });
    expect((await bashOnly.execute({ command: `echo ${SUBMIT_MARKER}` }, ctx)).submitted).toBe(true);
    expect(
      (await bashOnly.execute({ command: `echo ${SUBMIT_MARKER}; exit 1` }, ctx)).submitted,
    ).toBeUndefined();
    expect((await shellTool.execute({ command: `echo ${SUBMIT_MARKER}` }, ctx)).submitted).toBeUndefined();
    expect(bashOnly.description).toContain(SUBMIT_MARKER);
  });
});

describe("run_tests and submit", () => {
  it("runs the task's command with extra args as positional parameters", async () => {
    const r = await runTestsTool.execute({ args: ["tests/a.py", "-k", "it's"] }, ctx);
    expect(r.output).toBe("args:tests/a.py -k it's\n[exit code 1]");
  });

  it("says so when the task has no test command", async () => {
    const r = await runTestsTool.execute({}, { ...ctx, testCommand: undefined });
    expect(r.error).toBe("no_tests");
  });

  it("appendArgs appends to plain commands and passes positionals to bash -c scripts", () => {
    expect(appendArgs(["pytest", "tests"], ["-x"])).toEqual(["pytest", "tests", "-x"]);
    expect(appendArgs(["bash", "-c", "s"], ["a"])).toEqual(["bash", "-c", "s", "run_tests", "a"]);
    expect(appendArgs(["bash", "-c", "s", "run_tests"], [])).toEqual(["bash", "-c", "s", "run_tests"]);
  });

  it("submit ends the run", async () => {
    expect(await submitTool.execute({}, ctx)).toMatchObject({ submitted: true });
  });
});
