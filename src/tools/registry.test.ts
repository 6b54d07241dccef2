import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolRegistry } from "./registry.js";
import { toolset } from "./toolsets.js";
import { defineTool } from "./types.js";

describe("ToolRegistry.specs", () => {
  it("shows the model closed objects, and fields with a default as optional", () => {
    const scroll = defineTool({
      name: "scroll",
      description: "scroll",
      kind: "read",
      schema: z.object({ at: z.object({ x: z.number(), y: z.number() }), dy: z.number().default(0) }),
      execute: async () => ({ output: "ok" }),
    });
    const [spec] = new ToolRegistry([scroll]).specs();
    expect(spec?.inputSchema).toEqual({
      type: "object",
      properties: {
        at: {
          type: "object",
          properties: { x: { type: "number" }, y: { type: "number" } },
          required: ["x", "y"],
          additionalProperties: false,
        },
        dy: { type: "number", default: 0 },
      },
      required: ["at"],
      additionalProperties: false,
    });
  });

  it("closes every coding tool's input, as it always has", () => {
    for (const spec of new ToolRegistry(toolset("full").tools).specs())
      expect(spec.inputSchema.additionalProperties, spec.name).toBe(false);
  });
});
