import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../tools/index.js";
import { CUA_TOOL_NAMES } from "./actions.js";
import { type ConfirmRequest, confirmationGate } from "./gate.js";
import { type CuaToolContext, cuaTools } from "./tools.js";
import type { Capture, Environment, Probe, ProbeQuery, ScreenAction, UiElement } from "./types.js";

const SCREEN = { width: 1920, height: 1080 };
const MODEL = { width: 960, height: 540 }; // exactly half, so the expected numbers are easy to read

const button = (index: number, name: string, x: number, y: number): UiElement => ({
  index,
  role: "button",
  name,
  box: { x, y, width: 100, height: 40 },
});

const registry = new ToolRegistry<CuaToolContext>(cuaTools({ elements: true }));

function context(
  options: {
    elements?: UiElement[];
    fresh?: UiElement[];
    numbered?: number;
    unchecked?: string;
    probe?: (q: ProbeQuery) => Promise<Probe>;
  } = {},
) {
  const acts: ScreenAction[] = [];
  const env = {
    kind: "browser",
    screen: SCREEN,
    act: async (a: ScreenAction) => {
      acts.push(a);
    },
    ...(options.probe ? { probe: options.probe } : {}),
  } as unknown as Environment;
  const elements = options.elements ?? [];
  const asked: ConfirmRequest[] = [];
  const gate = confirmationGate((r) => {
    asked.push(r);
    return false;
  });
  const ctx: CuaToolContext = {
    env,
    frame: {
      screen: SCREEN,
      model: MODEL,
      elements,
      numbered: options.numbered ?? elements.length,
      ...(options.unchecked ? { unchecked: options.unchecked } : {}),
    },
    snapshot: async (): Promise<Capture> => ({
      png: Buffer.alloc(0),
      size: SCREEN,
      captureMs: 0,
      elements: options.fresh ?? elements,
    }),
    settleMs: 0,
    executed: [],
    permission: gate,
  };
  return { ctx, acts, gate, asked };
}

const call = (name: string, input: unknown, parseError?: string) => ({
  id: "c",
  name,
  input,
  ...(parseError ? { parseError } : {}),
});

describe("the computer-use tools in the registry", () => {
  it("offers every action, click_element only when observations number the elements, inputs as JSON Schema", () => {
    expect(registry.names).toEqual(CUA_TOOL_NAMES);
    expect(cuaTools({ elements: false }).map((t) => t.name)).not.toContain("click_element");
    expect(registry.get("click")?.kind).toBe("computer");
    expect(registry.get("done")?.kind).toBe("control");
    const wait = registry.specs().find((t) => t.name === "wait");
    expect(wait?.inputSchema).toMatchObject({
      type: "object",
      properties: { seconds: { type: "number", maximum: 10 } },
      required: ["seconds"],
    });
    expect(wait?.inputSchema).not.toHaveProperty("$schema");
    expect(wait?.description).toMatch(/up to 10 seconds/);
    // A field with a default is the model's to leave out: the input side of the schema.
    expect(registry.specs().find((t) => t.name === "scroll")?.inputSchema.required).toEqual(["x", "y"]);
  });

  it("maps clicks, both ends of a drag and scroll amounts from the model's image to the screen", async () => {
    const { ctx, acts } = context();
    expect(await registry.call(call("click", { x: 10, y: 20, button: "right" }), ctx)).toEqual({
      output: "ok: click (10, 20) right",
    });
    await registry.call(call("drag", { from: { x: 10, y: 20 }, to: { x: 100, y: 200 } }), ctx);
    await registry.call(call("scroll", { x: 480, y: 270, dy: 150 }), ctx);
    await registry.call(call("type", { text: "hi" }), ctx);
    expect(acts).toEqual([
      { kind: "click", x: 20, y: 40, button: "right" },
      { kind: "drag", from: { x: 20, y: 40 }, to: { x: 200, y: 400 } },
      { kind: "scroll", x: 960, y: 540, dx: 0, dy: 300 },
      { kind: "type", text: "hi" },
    ]);
    expect(ctx.executed).toEqual(acts);
  });

  it("refuses a point outside the image, naming the model's size, and acts on nothing", async () => {
    const { ctx, acts } = context();
    const r = await registry.call(call("drag", { from: { x: 10, y: 20 }, to: { x: 1000, y: 20 } }), ctx);
    expect(r).toMatchObject({
      error: "outside_screen",
      output: expect.stringMatching(/^error: .*which is 960×540/),
    });
    expect(acts).toEqual([]);
  });

  it("gates a double-click on a destructive control through the permission hook", async () => {
    const { ctx, acts, gate, asked } = context({ elements: [button(1, "Revoke token", 400, 400)] });
    const r = await registry.call(call("double_click", { x: 225, y: 210 }), ctx);
    expect(r).toMatchObject({
      error: "permission_denied",
      output: expect.stringMatching(
        /^error: permission denied for double_click: that click would hit button "Revoke token"/,
      ),
    });
    expect(asked[0]).toMatchObject({ tool: "double_click", matched: "revoke", point: { x: 450, y: 420 } });
    expect(gate.blocked).toHaveLength(1);
    expect(acts).toEqual([]);
  });

  it("refuses every click on a frame whose labels could not be read, and lets keys through", async () => {
    const { ctx, acts } = context({ unchecked: "its element capture failed: boom" });
    const r = await registry.call(call("click", { x: 10, y: 10 }), ctx);
    expect(r.output).toMatch(
      /could not be checked for a destructive label \(its element capture failed: boom\)/,
    );
    expect(await registry.call(call("key", { keys: "Tab" }), ctx)).toEqual({ output: "ok: key Tab" });
    expect(acts).toEqual([{ kind: "key", keys: "Tab" }]);
  });

  it("asks the live page what keys, typing and presses reach, and refuses what it cannot read", async () => {
    const queries: ProbeQuery[] = [];
    const deleteButton = {
      role: "button",
      name: "Delete account",
      label: "Delete account",
      via: "focused",
      point: { x: 5, y: 5 },
    };
    const { ctx, acts, gate } = context({
      probe: async (q) => {
        queries.push(q);
        if (q.kind === "focus")
          return { ok: true, controls: [], focus: { kind: "control", self: deleteButton } };
        if (q.y > 500)
          return { ok: false, reason: "the live page could not be read (Execution context was destroyed)" };
        return { ok: true, controls: [] };
      },
    });
    // Tab activates nothing: the page is not even asked. Typing asks where the focus is (type-ahead
    // picks a select's option), and a focused button has no options to pick.
    expect(await registry.call(call("key", { keys: "shift+Tab" }), ctx)).toEqual({
      output: "ok: key shift+Tab",
    });
    expect(queries).toEqual([]);
    expect(await registry.call(call("type", { text: "abc" }), ctx)).toEqual({ output: 'ok: type "abc"' });
    expect(queries).toEqual([{ kind: "focus" }]);
    queries.length = 0;
    expect((await registry.call(call("key", { keys: "Enter" }), ctx)).output).toMatch(
      /^error: permission denied for key: that key press would activate button "Delete account" \(focused\)/,
    );
    expect((await registry.call(call("click", { x: 10, y: 400 }), ctx)).output).toMatch(
      /could not be checked for a destructive label \(the live page could not be read \(Execution context was destroyed\)\)/,
    );
    expect(queries).toEqual([{ kind: "focus" }, { kind: "point", x: 20, y: 800 }]);
    expect(gate.blocked.map((b) => b.summary)).toEqual([
      'key Enter on button "Delete account" (focused; matched "delete")',
      "click: what it would activate could not be read (the live page could not be read (Execution context was destroyed))",
    ]);
    expect(acts).toEqual([
      { kind: "key", keys: "shift+Tab" },
      { kind: "type", text: "abc" },
    ]);
  });

  it("clicks a numbered element where the fresh snapshot has it, even if it moved", async () => {
    const seen = [button(1, "Cancel", 0, 0), button(2, "Save", 400, 400)];
    const fresh = [button(1, "Banner", 0, 0), button(2, "Cancel", 0, 60), button(3, "Save", 400, 460)];
    const { ctx, acts } = context({ elements: seen, fresh });
    expect(await registry.call(call("click_element", { index: 2 }), ctx)).toEqual({
      output: "ok: click_element [2]",
    });
    expect(acts).toEqual([{ kind: "click", x: 450, y: 480 }]);
  });

  it("re-checks a numbered destructive element's label on the fresh snapshot before the gate judges it", async () => {
    const seen = [button(1, "Save", 400, 400)];
    const fresh = [button(1, "Save", 400, 400), button(2, "Delete account", 520, 400)];
    const { ctx, acts, asked } = context({ elements: seen, fresh });
    await registry.call(call("click_element", { index: 1 }), ctx);
    expect(acts).toHaveLength(1);
    expect(asked).toEqual([]); // Save is what it hits on the fresh frame: nothing to ask
  });

  it("refuses a stale number, an index past the list and click_element without numbers", async () => {
    const stale = context({
      elements: [button(1, "Save", 400, 400)],
      fresh: [button(1, "Saved!", 400, 400)],
    });
    const gone = await registry.call(call("click_element", { index: 1 }), stale.ctx);
    expect(gone).toMatchObject({
      error: "not_found",
      output: expect.stringMatching(/no longer where it was/),
    });
    const list = context({ elements: [button(1, "Save", 400, 400)] });
    expect(await registry.call(call("click_element", { index: 9 }), list.ctx)).toMatchObject({
      error: "invalid_arguments",
      output: expect.stringMatching(/no element \[9\]; the list has 1/),
    });
    const none = context({ elements: [button(1, "Save", 400, 400)], numbered: 0 });
    expect(await registry.call(call("click_element", { index: 1 }), none.ctx)).toMatchObject({
      error: "invalid_arguments",
      output: expect.stringMatching(/this observation has none. Click by coordinates/),
    });
    expect([...stale.acts, ...list.acts, ...none.acts]).toEqual([]);
  });

  it("scrolls an element listed offscreen into view and clicks it there, or refuses saying why", async () => {
    const hidden = { ...button(1, "Order 17", 0, 900), states: ["offscreen"], ref: 17 };
    const shown = { ...button(1, "Order 17", 0, 300), ref: 17 };
    const withReveal = (after: UiElement) => {
      const c = context({ elements: [hidden] });
      const revealed: UiElement[] = [];
      let snapshots = 0;
      Object.assign(c.ctx.env, {
        reveal: async (e: UiElement) => {
          revealed.push(e);
        },
      });
      c.ctx.snapshot = async () => ({
        png: Buffer.alloc(0),
        size: SCREEN,
        captureMs: 0,
        elements: snapshots++ === 0 ? [hidden] : [after],
      });
      return { ...c, revealed };
    };
    // Scrolled into view: clicked at its new place.
    const scrolls = withReveal(shown);
    expect(await registry.call(call("click_element", { index: 1 }), scrolls.ctx)).toEqual({
      output: "ok: click_element [1]",
    });
    expect(scrolls.revealed.map((e) => e.ref)).toEqual([17]);
    expect(scrolls.acts).toEqual([{ kind: "click", x: 50, y: 320 }]);
    // Something keeps it hidden: nothing is pressed.
    const stuck = withReveal(hidden);
    expect(await registry.call(call("click_element", { index: 1 }), stuck.ctx)).toMatchObject({
      error: "not_found",
      output: expect.stringMatching(/still out of sight after scrolling it into view .* Nothing was clicked/),
    });
    // An environment that cannot scroll: the model is told to scroll itself.
    const cannot = context({ elements: [hidden] });
    expect(await registry.call(call("click_element", { index: 1 }), cannot.ctx)).toMatchObject({
      error: "not_found",
      output: expect.stringMatching(/out of sight and this environment cannot scroll it into view/),
    });
    expect([...stuck.acts, ...cannot.acts]).toEqual([]);
  });

  it("returns done as a submission with its summary, and a screenshot as a plain observation", async () => {
    const { ctx, acts } = context();
    expect(await registry.call(call("done", { summary: "finished" }), ctx)).toEqual({
      output: "ok: done",
      submitted: true,
      summary: "finished",
    });
    expect(await registry.call(call("screenshot", {}), ctx)).toEqual({
      output: "ok: a fresh screenshot follows",
    });
    expect(acts).toEqual([]);
  });

  it("never throws on garbage: unknown tools, unparsed JSON, wrong types, extra keys, a wait over 10 s", async () => {
    const { ctx, acts } = context();
    const out = async (name: string, input: unknown, parseError?: string) =>
      (await registry.call(call(name, input, parseError), ctx)).output;
    expect(await out("rm", {})).toMatch(/^error: there is no tool named "rm". Available tools: click,/);
    expect(await out("click", "{x:", "Unexpected token")).toMatch(/not valid JSON \(Unexpected token\)/);
    expect(await out("click", { x: "ten", y: 2 })).toMatch(/invalid arguments for click:\n {2}- x: /);
    expect(await out("type", { text: "hi", submit: true })).toMatch(/invalid arguments for type/);
    expect(await out("scroll", { x: 1, y: 1 })).toMatch(/non-zero dx or dy/);
    expect(await out("key", { keys: "ctrl + a" })).toMatch(/one key or combo/);
    expect(await out("click", null)).toMatch(/invalid arguments for click/);
    expect(await out("wait", { seconds: 30 })).toMatch(/invalid arguments for wait:\n {2}- seconds: .*10/);
    expect(acts).toEqual([]);
  });

  it("remembers an environment failure so the run ends, instead of the turn", async () => {
    const { ctx } = context();
    ctx.env.act = async () => {
      throw new Error("browser has been closed");
    };
    await expect(registry.call(call("key", { keys: "Tab" }), ctx)).rejects.toThrow(/browser has been closed/);
    expect(ctx.envFailure).toBeInstanceOf(Error);
  });
});
