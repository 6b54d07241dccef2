import { readFileSync } from "node:fs";
import { z } from "zod";
import { commandWindow } from "../deadline.js";
import { defineTool } from "../types.js";
import { formatExecResult } from "./shell.js";

export const runTestsTool = defineTool({
  name: "run_tests",
  description: readFileSync(new URL("./run-tests.txt", import.meta.url), "utf8"),
  kind: "execute",
  schema: z.object({
    args: z
      .array(z.string())
      .optional()
      .describe('Extra arguments appended to the test command, e.g. ["tests/test_core.py", "-k", "median"].'),
  }),
  async execute(input, ctx) {
    if (!ctx.testCommand || ctx.testCommand.length === 0) {
      return {
        error: "no_tests",
        output: "error: this task has no test command; run tests yourself with the shell tool.",
      };
    }
    const argv = appendArgs(ctx.testCommand, input.args ?? []);
    const window = commandWindow(ctx, ctx.commandTimeoutMs);
    if (!window.ok) return window.result;
    const result = await ctx.sandbox.exec({ argv, timeoutMs: window.timeoutMs });
    return {
      output: formatExecResult(result, window),
      ...(result.timedOut ? { error: "timeout" as const } : {}),
    };
  },
});

/**
 * Extra arguments go after the command. When the command is `bash -c "<script>"`, they become the
 * script's positional parameters ("$@"), so a script can default to the whole suite when none are given.
 */
export function appendArgs(command: readonly string[], args: readonly string[]): string[] {
  if (args.length === 0) return [...command];
  const isShellScript = command.length >= 3 && command[0] === "bash" && command[1] === "-c";
  if (!isShellScript) return [...command, ...args];
  return [...command.slice(0, 3), "run_tests", ...args];
}
