import { readFileSync } from "node:fs";
import { z } from "zod";
import type { ExecResult } from "../../sandbox/index.js";
import { commandWindow, type OpenWindow, timedOutNote } from "../deadline.js";
import { failure } from "../errors.js";
import { defineTool } from "../types.js";

/** SWE-agent's list: programs that wait for a terminal user and would hang until the timeout. */
const INTERACTIVE = new Set([
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
  "less",
  "more",
  "top",
  "htop",
  "man",
  "ipython",
]);

/** The longest single command a model may ask for: production harnesses cap at 10 minutes. */
export const MAX_COMMAND_TIMEOUT_S = 600;

/** A command's output as the model reads it, with how it ended; `window`: the clock it ran under. */
export function formatExecResult(r: ExecResult, window: OpenWindow): string {
  const body = r.output.length > 0 ? r.output.replace(/\n$/, "") : "(no output)";
  if (r.timedOut) return `${body}\n${timedOutNote(window)}`;
  if (r.exitCode === null) return `${body}\n[killed by signal ${r.signal ?? "?"}]`;
  return `${body}\n[exit code ${r.exitCode}]`;
}

/** The first program of each `;`/`&&`/`||`/`|` segment, to catch `git log | less` as well as `vim x`. */
function interactiveProgram(command: string): string | undefined {
  for (const segment of command.split(/;|&&|\|\||\||\n/)) {
    const words = segment.trim().split(/\s+/);
    const first = words[0] ?? "";
    if (INTERACTIVE.has(first)) return first;
    if (first === "tail" && words.some((w) => w === "-f" || w === "-F" || w === "--follow")) return "tail -f";
  }
  return undefined;
}

/** mini-SWE-agent's submission protocol: a command whose first output line is this submits. */
export const SUBMIT_MARKER = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT";

const SUBMIT_NOTE = `\nWhen the task is done, submit by running: echo ${SUBMIT_MARKER}\n(the command must print that as its first line and exit 0; nothing can be changed after it).`;

/**
 * The shell tool. With `submitByMarker` it is the whole interface of the bash-only arm: a command that
 * prints SUBMIT_MARKER first and exits 0 ends the run, as in mini-SWE-agent.
 */
export function createShellTool(options: { submitByMarker?: boolean } = {}) {
  return defineTool({
    name: "shell",
    description:
      readFileSync(new URL("./shell.txt", import.meta.url), "utf8") +
      (options.submitByMarker ? SUBMIT_NOTE : ""),
    kind: "execute",
    schema: z.object({
      command: z
        .string()
        .min(1)
        .describe("The bash command to run, e.g. `python3 -m pytest -x tests/test_core.py`."),
      timeout_s: z
        .number()
        .int()
        .min(1)
        .max(MAX_COMMAND_TIMEOUT_S)
        .optional()
        .describe("Wall-clock limit in seconds (default: the run's command timeout)."),
    }),
    async execute(input, ctx) {
      const program = interactiveProgram(input.command);
      if (program) {
        return failure(
          "command_failed",
          `"${program}" is interactive and would wait forever for a keyboard. Use view/read_file to read files, str_replace to edit them, and plain commands (cat, head, grep) otherwise.`,
        );
      }
      const window = commandWindow(
        ctx,
        input.timeout_s !== undefined ? input.timeout_s * 1000 : ctx.commandTimeoutMs,
      );
      if (!window.ok) return window.result;
      const result = await ctx.sandbox.exec({
        argv: ["bash", "-c", input.command],
        timeoutMs: window.timeoutMs,
      });
      if (
        options.submitByMarker &&
        result.exitCode === 0 &&
        result.output.split("\n")[0]?.trim() === SUBMIT_MARKER
      ) {
        return { output: "Submitted. The run ends here.", submitted: true };
      }
      return {
        output: formatExecResult(result, window),
        ...(result.timedOut ? { error: "timeout" as const } : {}),
      };
    },
  });
}

export const shellTool = createShellTool();
