import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import type { ExecChannel } from "../../sandbox/index.js";
import { capRecordedCall } from "../../trajectory/index.js";
import { failure } from "../errors.js";
import type { ToolRegistry } from "../registry.js";
import type { NestedCall, ToolContext, ToolErrorKind, ToolResult } from "../types.js";
import { type RequestLine, RequestLines } from "./request-lines.js";

/**
 * Tool calls one program may make; later ones are refused (and not recorded). A runaway loop stops
 * here instead of at the timeout; Acme needs 14, and a thousand calls is a long scripted session.
 */
export const MAX_CALLS_PER_PROGRAM = 1_000;
/**
 * Largest request (one JSON line) read from a program: 1 MiB holds a whole-file write of any source
 * file of the built-in suite a hundred times over (the largest, a whole history patch, is 12 KB) and of
 * most real ones. A bigger one is dropped as it arrives and answered with an error: an 8 MB argument
 * took up to 14 s of the harness's time (issue 9), and a program can write a big file itself — it
 * runs in the workspace.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/**
 * Requests read but not yet answered before the harness stops reading the pipe (the program's writes
 * then block). The clients wait for each reply, so an honest program has one in flight; more means it
 * writes requests blindly, and without a bound the harness would queue all of them.
 */
export const MAX_PENDING_REQUESTS = 8;

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
  /** The calls as the trajectory keeps them: arguments and results cut to RECORDED_CALL_CHARS. */
  readonly calls: NestedCall[] = [];
  readonly changedFiles = new Set<string>();
  submitted = false;
  /** Calls refused because the program had already made maxCalls (not in `calls`). */
  refused = 0;
  /** Most requests that were ever waiting at once (at most MAX_PENDING_REQUESTS plus one chunk's worth). */
  peakPending = 0;
  private pending = 0;
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
    const lines = new RequestLines(MAX_REQUEST_BYTES, (line) => {
      this.pending++;
      this.peakPending = Math.max(this.peakPending, this.pending);
      if (this.pending >= MAX_PENDING_REQUESTS) fromProgram.pause();
      this.queue = this.queue.then(async () => {
        const reply = await this.answer(line);
        // A program that does not read its replies must not make the harness hold them all either.
        if (!toProgram.destroyed && !toProgram.write(`${JSON.stringify(reply)}\n`))
          await new Promise((r) => {
            toProgram.once("drain", r);
            toProgram.once("close", r);
          });
        this.pending--;
        if (this.pending < MAX_PENDING_REQUESTS && fromProgram.isPaused()) fromProgram.resume();
      });
    });
    fromProgram.on("data", (chunk: Buffer | string) =>
      lines.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk),
    );
  }

  /** Resolves when every request read so far has been answered (call after the program exits). */
  async idle(): Promise<void> {
    await this.queue;
  }

  private async answer(line: RequestLine): Promise<Reply> {
    if ("tooLong" in line) return this.tooLong(line.tooLong);
    let json: unknown;
    try {
      json = JSON.parse(line.text);
    } catch {
      return protocolError(null, "a request was not valid JSON");
    }
    const parsed = Request.safeParse(json);
    if (!parsed.success) return protocolError(null, "a request was not a JSON-RPC call {id, method, params}");
    const { id, method, params } = parsed.data;
    if (this.calls.length >= this.maxCalls) {
      // Not recorded: a program looping on a refused call must not grow the trajectory.
      this.refused++;
      const message = `error: this program already made ${this.maxCalls} tool calls, the limit for one program; do less per program`;
      return {
        jsonrpc: "2.0",
        id,
        error: { code: TOOL_ERROR_CODE, message, data: { kind: "command_failed" } },
      };
    }
    const started = performance.now();
    const result = await this.run(method, params);
    const duration = performance.now() - started;
    this.record({
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

  /** A request over MAX_REQUEST_BYTES: never parsed, answered with the limit and what to do instead. */
  private tooLong({ bytes, head }: { bytes: number; head: string }): Reply {
    const tool = /"method"\s*:\s*"([^"\\]{1,64})"/.exec(head)?.[1];
    const what = tool ? `this ${tool} call` : "this tool call";
    const message = `error: ${what} sent ${mib(bytes)} of arguments; one call may send at most ${mib(MAX_REQUEST_BYTES)}. Send large content in pieces over several calls, or have the program write the file itself (it runs in the workspace)`;
    if (this.calls.length < this.maxCalls)
      this.record({
        tool: tool ?? "(unknown)",
        input: `(a request of ${bytes.toLocaleString("en-US")} bytes, not read: over the ${mib(MAX_REQUEST_BYTES)} limit)`,
        output: message,
        error: "invalid_arguments",
        duration_ms: 0,
      });
    else this.refused++;
    return {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: ERROR_CODES.invalid_arguments ?? TOOL_ERROR_CODE,
        message,
        data: { kind: "invalid_arguments" },
      },
    };
  }

  private record(call: NestedCall): void {
    this.calls.push(capRecordedCall(call));
  }

  private async run(method: string, params: Record<string, unknown>): Promise<ToolResult> {
    if (this.submitted) return failure("command_failed", "the task was already submitted; no more calls run");
    try {
      return await this.registry.call(
        { id: String(this.calls.length + 1), name: method, input: params },
        this.ctx,
      );
    } catch (err) {
      // The tool's infrastructure failed (not the program's fault): the program gets a ToolError.
      return failure(
        "command_failed",
        `the ${method} tool failed internally: ${err instanceof Error ? err.message : String(err)}`,
      );
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

/** Bytes as MiB for messages: "8.0 MiB", "1 MiB". */
function mib(bytes: number): string {
  const m = bytes / 1024 ** 2;
  return `${Number.isInteger(m) ? m : m.toFixed(1)} MiB`;
}
