import { readFileSync } from "node:fs";
import { z } from "zod";
import type { ExecResult } from "../../sandbox/index.js";
import { commandWindow, type OpenWindow, timedOutNote } from "../deadline.js";
import { ToolRegistry } from "../registry.js";
import { defineTool, type NestedCall, type ToolDefinition } from "../types.js";
import { MAX_CALLS_PER_PROGRAM, type ProgramTool, ToolCallServer } from "./rpc.js";

/** The two action formats: one tool call per JSON object, or one program per turn. */
export const ACTION_FORMATS = ["json", "code"] as const;
export type ActionFormat = (typeof ACTION_FORMATS)[number];

export const LANGUAGES = ["python", "javascript"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * What a program may print into the observation: mini-SWE-agent keeps 10k characters. A program is
 * meant to print a summary — the point of code actions is that raw results stay out of the context.
 */
export const CODE_OUTPUT_LIMIT = 10_000;

const read = (name: string) => readFileSync(new URL(name, import.meta.url), "utf8");
const CLIENTS: Record<Language, string> = {
  python: read("./client.py.txt"),
  javascript: read("./client.js.txt"),
};
/** Interpreters by name on the sandbox's fixed PATH (/usr/bin first), never a host shim. -u: no lost output on a kill. */
const INTERPRETER: Record<Language, (client: string) => string[]> = {
  python: (client) => ["python3", "-u", "-B", "-c", client],
  javascript: (client) => ["node", "-e", client],
};

/** Parameter names in positional order, from a tool's JSON Schema; optional ones marked. */
function parameters(schema: Record<string, unknown>): Array<{ name: string; optional: boolean }> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.keys(properties).map((name) => ({ name, optional: !required.has(name) }));
}

/** The first sentence of a tool's prose: the function list must stay short. */
function firstSentence(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  const end = line.search(/\.(\s|$)/);
  return end > 0 ? line.slice(0, end + 1) : line;
}

function describe(registry: ToolRegistry): string {
  const functions = registry.specs().map((spec) => {
    const params = parameters(spec.inputSchema).map((p) => (p.optional ? `${p.name}=None` : p.name));
    return `- ${spec.name}(${params.join(", ")}): ${firstSentence(spec.description)}`;
  });
  return `${read("./run_code.txt").trim()}\n\nFunctions available in the program:\n${functions.join("\n")}`;
}

/** The observation: what the program printed, then one status line if it did not finish cleanly. */
export function programObservation(
  r: ExecResult,
  window: OpenWindow,
  calls: readonly NestedCall[],
  refused = 0,
): string {
  const body = r.output.replace(/\n$/, "") || "(the program printed nothing; print what you need to see)";
  const ok = calls.filter((c) => c.error === null).length;
  // Side effects of the calls that succeeded stay: say so, so the model does not blindly rerun them.
  let made = `${calls.length} tool call${calls.length === 1 ? "" : "s"} made, ${ok} succeeded`;
  if (refused > 0)
    made += `, ${refused} more refused (over the limit of ${MAX_CALLS_PER_PROGRAM} per program)`;
  if (r.timedOut) {
    if (window.by === "run")
      return `${body}\n${timedOutNote(window, "the program").replace(/\]$/, `; ${made}]`)}`;
    return `${body}\n[the program ran longer than ${Math.round(window.timeoutMs / 1000)} s and was killed with everything it started; ${made}]`;
  }
  if (r.exitCode === null) return `${body}\n[the program was killed by signal ${r.signal ?? "?"}; ${made}]`;
  if (r.exitCode !== 0) return `${body}\n[exit code ${r.exitCode}; ${made}]`;
  return body;
}

/**
 * The `run_code` tool: the model writes one program; it runs in the sandbox with `tools` as functions,
 * each call crossing back to the harness over the sandbox's channel (fds 3/4) as JSON-RPC.
 */
export function createRunCodeTool(tools: readonly ToolDefinition[]) {
  const registry = new ToolRegistry(tools);
  const functions: ProgramTool[] = registry.specs().map((spec) => ({
    name: spec.name,
    params: parameters(spec.inputSchema).map((p) => p.name),
  }));
  return defineTool({
    name: "run_code",
    description: describe(registry),
    kind: "execute",
    schema: z.object({
      language: z.enum(LANGUAGES).describe("The program's language."),
      code: z.string().min(1).describe("The whole program. Print what you want to read."),
      timeout_s: z
        .number()
        .int()
        .min(1)
        .max(600)
        .optional()
        .describe("Wall-clock limit in seconds (default: the run's command timeout)."),
    }),
    async execute(input, ctx) {
      const window = commandWindow(
        ctx,
        input.timeout_s !== undefined ? input.timeout_s * 1000 : ctx.commandTimeoutMs,
      );
      if (!window.ok) return window.result;
      const server = new ToolCallServer(registry, ctx, { code: input.code, tools: functions });
      const result = await ctx.sandbox.exec({
        argv: INTERPRETER[input.language](CLIENTS[input.language]),
        timeoutMs: window.timeoutMs,
        outputLimit: CODE_OUTPUT_LIMIT,
        channel: server,
      });
      await server.idle();
      const failed = result.timedOut || result.exitCode !== 0;
      return {
        output: programObservation(result, window, server.calls, server.refused),
        ...(failed ? { error: result.timedOut ? ("timeout" as const) : ("command_failed" as const) } : {}),
        calls: server.calls,
        changedFiles: [...server.changedFiles].sort(),
        ...(server.submitted ? { submitted: true } : {}),
      };
    },
  });
}

/**
 * The tools a model gets in the code format: `run_code` over the task's tools, plus the control tools
 * (submit) as direct calls, so a run still ends on a turn boundary with an answer the model chose.
 */
export function codeActionTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  const control = tools.filter((t) => t.kind === "control");
  return [createRunCodeTool(tools.filter((t) => t.kind !== "control")), ...control];
}

/** The tools for an action format. */
export function toolsForFormat(format: ActionFormat, tools: readonly ToolDefinition[]): ToolDefinition[] {
  return format === "code" ? codeActionTools(tools) : [...tools];
}
