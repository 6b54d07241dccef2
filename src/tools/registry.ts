import { z } from "zod";
import type { ToolCall, ToolSpec } from "../messages/index.js";
import { failure } from "./errors.js";
import type {
  BaseToolContext,
  PermissionDecision,
  Resolution,
  ToolContext,
  ToolDefinition,
  ToolResult,
} from "./types.js";

/**
 * A tool of any schema and resolved input, run in context `C` (the definitions' method syntax makes a
 * tool with a narrower input assignable here; each tool's own types check its code).
 */
export type AnyTool<C extends BaseToolContext = ToolContext> = ToolDefinition<z.ZodType, C, unknown>;

/**
 * Dispatches model tool calls to tool definitions, for any kind of context (the workspace tools'
 * ToolContext by default; computer use's screen). Everything a model can get wrong — an unknown
 * name, arguments that are not JSON, arguments that fail the schema, a call its tool cannot resolve
 * (a point off the screen) — comes back as an error observation that says how to fix it; only a
 * tool's own infrastructure failure is an exception.
 */
export class ToolRegistry<C extends BaseToolContext = ToolContext> {
  private readonly byName = new Map<string, AnyTool<C>>();
  private cachedSpecs: ToolSpec[] | undefined;

  constructor(readonly tools: readonly AnyTool<C>[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`tool set lists "${tool.name}" twice`);
      this.byName.set(tool.name, tool);
    }
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  get(name: string): AnyTool<C> | undefined {
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
  ): { ok: true; tool: AnyTool<C>; input: unknown } | { ok: false; result: ToolResult } {
    const tool = this.byName.get(call.name);
    if (!tool) {
      return {
        ok: false,
        result: failure(
          "unknown_tool",
          `there is no tool named "${call.name}". Available tools: ${this.names.join(", ")}.`,
        ),
      };
    }
    if (call.parseError !== undefined) {
      return {
        ok: false,
        result: failure(
          "invalid_arguments",
          `the arguments for ${call.name} are not valid JSON (${call.parseError}). Send one JSON object matching the tool's schema.`,
        ),
      };
    }
    const parsed = tool.schema.safeParse(call.input ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((issue) => `  - ${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`)
        .join("\n");
      return {
        ok: false,
        result: failure(
          "invalid_arguments",
          `invalid arguments for ${call.name}:\n${problems}\nExpected input schema: ${JSON.stringify(inputSchemaOf(tool))}`,
        ),
      };
    }
    return { ok: true, tool, input: parsed.data };
  }

  /**
   * Validate, resolve (what the call will really do, and to what), ask the permission hook (now, not
   * earlier: see PermissionHook) with the resolved input and its target, then run.
   */
  async call(call: ToolCall, ctx: C): Promise<ToolResult> {
    const checked = this.validate(call);
    if (!checked.ok) return checked.result;
    const { tool } = checked;
    const resolved: Resolution<unknown> = tool.resolve
      ? await tool.resolve(checked.input, ctx)
      : { ok: true, input: checked.input };
    if (!resolved.ok) return resolved.result;
    const decision: PermissionDecision = ctx.permission
      ? await ctx.permission(call.name, resolved.input, resolved.target)
      : { allow: true };
    if (!decision.allow) {
      return failure(
        "permission_denied",
        `permission denied for ${call.name}: ${decision.reason}. Do not retry the same call; choose another way or explain why it is needed.`,
      );
    }
    return tool.execute(resolved.input, ctx);
  }
}

/**
 * A tool's input as JSON Schema, without the `$schema` key providers reject. The input side of the
 * schema, so a field with a default is optional for the model (`scroll`'s dx), not required; and every
 * object closed (`additionalProperties: false`), as the output side says: keys a tool does not read
 * are dropped, and the model should not be invited to send them.
 */
function inputSchemaOf(tool: { schema: z.ZodType }): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.schema, { io: "input" }) as Record<
    string,
    unknown
  >;
  return closeObjects(schema) as Record<string, unknown>;
}

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = closeObjects(value);
  if (out.type === "object" && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
}

/** Errors that mean the model used the interface wrongly (they count toward the format-error limit). */
export function isFormatError(result: ToolResult): boolean {
  return result.error === "unknown_tool" || result.error === "invalid_arguments";
}
