import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import type { ExecChannel } from "../../sandbox/index.js";
import type { ToolRegistry } from "../registry.js";
import type { NestedCall, ToolContext, ToolErrorKind, ToolResult } from "../types.js";

/** A runaway loop that calls a tool forever stops here instead of at the timeout (Acme needs 14). */
export const MAX_CALLS_PER_PROGRAM = 1_000;
/** Longest request line read from a program: a whole-file write fits; a runaway string does not. */
export const MAX_REQUEST_CHARS = 8 * 1024 * 1024;

/** What the program is told about each tool: its name and its parameters in positional order. */
export interface ProgramTool {
  name: string;
  params: string[];
}

/** The first line the harness sends: the program to run and the functions to define. */
export interface RunMessage {
  jsonrpc: "2.0";
  method: "run";
  params: { code: string; tools: ProgramTool[] };
}

const Request = z.object({
  jsonrpc: z.literal("2.0").optional(),
  id: z.union([z.number(), z.string()]),
  method: z.string().min(1),
  params: z.record(z.string(), z.unknown()).default({}),
});

type Reply =
  | { jsonrpc: "2.0"; id: number | string | null; result: unknown }
  | {
      jsonrpc: "2.0";
      id: number | string | null;
      error: { code: number; message: string; data: { kind: ToolErrorKind | "protocol" } };
    };

/** JSON-RPC codes: the standard ones for protocol faults, -32000…-32099 for tool outcomes. */
const ERROR_CODES: Partial<Record<ToolErrorKind, number>> = {
  unknown_tool: -32601,
  invalid_arguments: -32602,
  permission_denied: -32001,
};
const TOOL_ERROR_CODE = -32000;

/**
 * The harness side of a code action's tool channel. It reads newline-delimited JSON-RPC requests
 * from the program, runs each through the registry (schema validation, then the permission hook at
 * the moment of the call, then the tool) one at a time, and writes the reply back. It records every
 * call for the trajectory; what a call returns reaches the model only if the program prints it.
 */
export class ToolCallServer implements ExecChannel {
  readonly calls: NestedCall[] = [];
  readonly changedFiles = new Set<string>();
  submitted = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly ctx: ToolContext,
    private readonly program: RunMessage["params"],
    private readonly maxCalls = MAX_CALLS_PER_PROGRAM,
  ) {}

  open({ fromProgram, toProgram }: { fromProgram: Readable; toProgram: Writable }): void {
    const run: RunMessage = { jsonrpc: "2.0", method: "run", params: this.program };
    toProgram.write(`${JSON.stringify(run)}\n`);
    onLines(fromProgram, MAX_REQUEST_CHARS, (line) => {
      this.queue = this.queue.then(async () => {
        const reply = await this.answer(line);
        if (!toProgram.destroyed) toProgram.write(`${JSON.stringify(reply)}\n`);
      });
    });
  }

  /** Resolves when every request read so far has been answered (call after the program exits). */
  async idle(): Promise<void> {
    await this.queue;
  }

  private async answer(line: string | undefined): Promise<Reply> {
    if (line === undefined)
      return protocolError(null, `a request was longer than ${MAX_REQUEST_CHARS} characters`);
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return protocolError(null, "a request was not valid JSON");
    }
    const parsed = Request.safeParse(json);
    if (!parsed.success) return protocolError(null, "a request was not a JSON-RPC call {id, method, params}");
    const { id, method, params } = parsed.data;
    const started = performance.now();
    const result = await this.run(method, params);
    const duration = performance.now() - started;
    this.calls.push({
      tool: method,
      input: params,
      output: result.output,
      error: result.error ?? null,
      duration_ms: Math.round(duration * 1000) / 1000,
    });
    for (const path of result.changedFiles ?? []) this.changedFiles.add(path);
    if (result.submitted) this.submitted = true;
    if (!result.error)
      return { jsonrpc: "2.0", id, result: result.data !== undefined ? result.data : result.output };
    const code = ERROR_CODES[result.error] ?? TOOL_ERROR_CODE;
    return { jsonrpc: "2.0", id, error: { code, message: result.output, data: { kind: result.error } } };
  }

  private async run(method: string, params: Record<string, unknown>): Promise<ToolResult> {
    if (this.submitted)
      return { error: "command_failed", output: "error: the task was already submitted; no more calls run" };
    if (this.calls.length >= this.maxCalls) {
      return {
        error: "command_failed",
        output: `error: this program already made ${this.maxCalls} tool calls, the limit for one program; do less per program`,
      };
    }
    try {
      return await this.registry.call(
        { id: String(this.calls.length + 1), name: method, input: params },
        this.ctx,
      );
    } catch (err) {
      // The tool's infrastructure failed (not the program's fault): the program gets a ToolError.
      return {
        error: "command_failed",
        output: `error: the ${method} tool failed internally: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  }
}

function protocolError(id: number | string | null, message: string): Reply {
  return {
    jsonrpc: "2.0",
    id,
    error: { code: -32600, message: `error: ${message}`, data: { kind: "protocol" } },
  };
}

/** Split a stream into lines; a line over `maxChars` is dropped and reported as `undefined`. */
function onLines(stream: Readable, maxChars: number, onLine: (line: string | undefined) => void): void {
  let buffer = "";
  let oversized = false;
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      onLine(oversized ? undefined : buffer.slice(0, nl));
      oversized = false;
      buffer = buffer.slice(nl + 1);
    }
    if (buffer.length > maxChars) {
      oversized = true;
      buffer = "";
    }
  });
}
