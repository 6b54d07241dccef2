import { describe, expect, it } from "vitest";
import { CUA_TOOL_NAMES, cuaToolSpecs, describeAction, parseAction } from "./actions.js";

const call = (name: string, input: unknown, parseError?: string) => ({
  id: "c1",
  name,
  input,
  ...(parseError ? { parseError } : {}),
});

describe("cuaToolSpecs", () => {
  it("offers every action, and click_element only when observations number the elements", () => {
    const withElements = cuaToolSpecs({ elements: true }).map((t) => t.name);
    expect(withElements).toEqual(CUA_TOOL_NAMES);
    expect(cuaToolSpecs({ elements: false }).map((t) => t.name)).not.toContain("click_element");
  });

  it("documents the inputs as JSON Schema without $schema (providers reject it)", () => {
    const wait = cuaToolSpecs({ elements: false }).find((t) => t.name === "wait");
    expect(wait?.inputSchema).toMatchObject({
      type: "object",
      properties: { seconds: { type: "number", maximum: 10 } },
      required: ["seconds"],
    });
    expect(wait?.inputSchema).not.toHaveProperty("$schema");
    expect(wait?.description).toMatch(/up to 10 seconds/);
  });
});

describe("parseAction", () => {
  it("turns valid calls into actions", () => {
    expect(parseAction(call("click", { x: 10, y: 20 }), 0)).toEqual({
      ok: true,
      action: { kind: "click", x: 10, y: 20 },
    });
    expect(parseAction(call("click", { x: 1, y: 2, button: "right" }), 0)).toMatchObject({
      action: { button: "right" },
    });
    expect(parseAction(call("scroll", { x: 5, y: 5, dy: 300 }), 0)).toEqual({
      ok: true,
      action: { kind: "scroll", x: 5, y: 5, dx: 0, dy: 300 },
    });
    expect(parseAction(call("drag", { from: { x: 1, y: 2 }, to: { x: 3, y: 4 } }), 0)).toMatchObject({
      ok: true,
    });
    expect(parseAction(call("screenshot", {}), 0)).toEqual({ ok: true, action: { kind: "screenshot" } });
    expect(parseAction(call("done", { summary: "saved" }), 0)).toEqual({
      ok: true,
      action: { kind: "done", summary: "saved" },
    });
    expect(parseAction(call("click_element", { index: 3 }), 5)).toEqual({
      ok: true,
      action: { kind: "click_element", index: 3 },
    });
  });

  it("refuses a wait over 10 s with an error phrased for the model", () => {
    const r = parseAction(call("wait", { seconds: 30 }), 0);
    expect(r).toEqual({
      ok: false,
      error: expect.stringMatching(/invalid arguments for wait \(seconds: .*10/),
    });
  });

  it("refuses click_element when the observation numbered no elements, and an index past the list", () => {
    expect(parseAction(call("click_element", { index: 1 }), 0)).toEqual({
      ok: false,
      error: expect.stringMatching(/this observation has none. Click by coordinates/),
    });
    expect(parseAction(call("click_element", { index: 9 }), 4)).toEqual({
      ok: false,
      error: expect.stringMatching(/no element \[9\]; the list has 4/),
    });
  });

  it("never throws on garbage: unknown tools, unparsed JSON, wrong types, extra keys", () => {
    expect(parseAction(call("rm", {}), 0)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no tool named "rm"/),
    });
    expect(parseAction(call("click", "{x:", "Unexpected token"), 0)).toMatchObject({
      error: expect.stringMatching(/not valid JSON \(Unexpected token\)/),
    });
    expect(parseAction(call("click", { x: "ten", y: 2 }), 0)).toMatchObject({
      error: expect.stringMatching(/x:/),
    });
    expect(parseAction(call("type", { text: "hi", submit: true }), 0)).toMatchObject({ ok: false });
    expect(parseAction(call("scroll", { x: 1, y: 1 }), 0)).toMatchObject({
      error: expect.stringMatching(/non-zero dx or dy/),
    });
    expect(parseAction(call("key", { keys: "ctrl + a" }), 0)).toMatchObject({ ok: false });
    expect(parseAction(call("click", null), 0)).toMatchObject({ ok: false });
  });
});

describe("describeAction", () => {
  it("writes one short line per action", () => {
    expect(describeAction({ kind: "click", x: 728, y: 410 })).toBe("click (728, 410)");
    expect(describeAction({ kind: "type", text: "x".repeat(60) })).toMatch(/^type "x{39}…"$/);
    expect(describeAction({ kind: "key", keys: "shift+Tab" })).toBe("key shift+Tab");
  });
});
