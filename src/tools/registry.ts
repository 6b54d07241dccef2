import { z } from "zod";
import type { ToolCall } from "../messages/index.js";
import type { ToolSpec } from "../policies/types.js";
import type { PermissionDecision, ToolContext, ToolDefinition, ToolResult } from "./types.js";

/**
 * Dispatches model tool calls to tool definitions. Everything a model can get wrong — an unknown
 * name, arguments that are not JSON, arguments that fail the schema — comes back as an error
 * observation that says how to fix it; only a tool's own infrastructure failure is an exception.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  private cachedSpecs: ToolSpec[] | undefined;

  constructor(readonly tools: readonly ToolDefinition[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`tool set lists "${tool.name}" twice`);
      this.byName.set(tool.name, tool);
    }
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /** The tools as a policy sends them to a model: name, prose, JSON Schema of the input. */
  specs(): ToolSpec[] {
    // Tool sets never change within a run, and the loop asks every step: convert once.
    this.cachedSpecs ??= this.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: inputSchemaOf(tool),
    }));
    return this.cachedSpecs;
  }

  /** Check a call without running it: the parsed input, or the error observation to return. */
  validate(
    call: ToolCall,
  ): { ok: true; tool: ToolDefinition; input: unknown } | { ok: false; result: ToolResult } {
    const tool = this.byName.get(call.name);
    if (!tool) {
      return {
        ok: false,
        result: {
          error: "unknown_tool",
          output: `error: there is no tool named "${call.name}". Available tools: ${this.names.join(", ")}.`,
        },
      };
    }
    if (call.parseError !== undefined) {
      return {
        ok: false,
        result: {
          error: "invalid_arguments",
          output: `error: the arguments for ${call.name} are not valid JSON (${call.parseError}). Send one JSON object matching the tool's schema.`,
        },
      };
    }
    const parsed = tool.schema.safeParse(call.input ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((issue) => `  - ${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`)
        .join("\n");
      return {
        ok: false,
        result: {
          error: "invalid_arguments",
          output: `error: invalid arguments for ${call.name}:\n${problems}\nExpected input schema: ${JSON.stringify(inputSchemaOf(tool))}`,
        },
      };
    }
    return { ok: true, tool, input: parsed.data };
  }

  /** Validate, ask the permission hook (now, not earlier: see PermissionHook), then run. */
  async call(call: ToolCall, ctx: ToolContext): Promise<ToolResult> {
    const checked = this.validate(call);
    if (!checked.ok) return checked.result;
    const decision: PermissionDecision = ctx.permission
      ? await ctx.permission(call.name, checked.input)
      : { allow: true };
    if (!decision.allow) {
      return {
        error: "permission_denied",
        output: `error: permission denied for ${call.name}: ${decision.reason}. Do not retry the same call; choose another way or explain why it is needed.`,
      };
    }
    return checked.tool.execute(checked.input, ctx);
  }
}

/** A tool's input as JSON Schema, without the `$schema` key providers reject. */
function inputSchemaOf(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  return schema;
}

/** Errors that mean the model used the interface wrongly (they count toward the format-error limit). */
export function isFormatError(result: ToolResult): boolean {
  return result.error === "unknown_tool" || result.error === "invalid_arguments";
}
