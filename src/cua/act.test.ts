import { describe, expect, it } from "vitest";
import { type ActContext, performCall } from "./act.js";
import { denyAll } from "./gate.js";
import type { Capture, Environment, ScreenAction, UiElement } from "./types.js";

const SCREEN = { width: 1920, height: 1080 };
const MODEL = { width: 960, height: 540 }; // exactly half, so the expected numbers are easy to read

const button = (index: number, name: string, x: number, y: number): UiElement => ({
  index,
  role: "button",
  name,
  box: { x, y, width: 100, height: 40 },
});

function context(options: { elements?: UiElement[]; fresh?: UiElement[]; numbered?: number } = {}) {
  const acts: ScreenAction[] = [];
  const env = {
    kind: "browser",
    screen: SCREEN,
    act: async (a: ScreenAction) => {
      acts.push(a);
    },
  } as unknown as Environment;
  const elements = options.elements ?? [];
  const ctx: ActContext = {
    env,
    screen: SCREEN,
    model: MODEL,
    elements,
    numbered: options.numbered ?? elements.length,
    confirm: denyAll,
    snapshot: async (): Promise<Capture> => ({
      png: Buffer.alloc(0),
      size: SCREEN,
      captureMs: 0,
      elements: options.fresh ?? elements,
    }),
  };
  return { ctx, acts };
}

const call = (name: string, input: unknown) => ({ id: "c", name, input });

describe("performCall", () => {
  it("maps both ends of a drag and scales scroll amounts to the screen", async () => {
    const { ctx, acts } = context();
    await performCall(call("drag", { from: { x: 10, y: 20 }, to: { x: 100, y: 200 } }), ctx);
    await performCall(call("scroll", { x: 480, y: 270, dy: 150 }), ctx);
    expect(acts).toEqual([
      { kind: "drag", from: { x: 20, y: 40 }, to: { x: 200, y: 400 } },
      { kind: "scroll", x: 960, y: 540, dx: 0, dy: 300 },
    ]);
  });

  it("refuses a drag that ends outside the image, naming the model's size", async () => {
    const { ctx, acts } = context();
    const r = await performCall(call("drag", { from: { x: 10, y: 20 }, to: { x: 1000, y: 20 } }), ctx);
    expect(r).toMatchObject({ kind: "acted", error: true, text: expect.stringMatching(/which is 960×540/) });
    expect(acts).toEqual([]);
  });

  it("gates a double-click on a destructive control too", async () => {
    const { ctx, acts } = context({ elements: [button(1, "Revoke token", 400, 400)] });
    const r = await performCall(call("double_click", { x: 225, y: 210 }), ctx);
    expect(r).toMatchObject({ error: true, blocked: { matched: "revoke" } });
    expect(acts).toEqual([]);
  });

  it("clicks a numbered element where the fresh snapshot has it, even if it moved", async () => {
    const seen = [button(1, "Cancel", 0, 0), button(2, "Save", 400, 400)];
    const fresh = [button(1, "Banner", 0, 0), button(2, "Cancel", 0, 60), button(3, "Save", 400, 460)];
    const { ctx, acts } = context({ elements: seen, fresh });
    await performCall(call("click_element", { index: 2 }), ctx);
    expect(acts).toEqual([{ kind: "click", x: 450, y: 480 }]);
  });

  it("refuses a numbered element that is gone from the fresh snapshot", async () => {
    const { ctx, acts } = context({
      elements: [button(1, "Save", 400, 400)],
      fresh: [button(1, "Saved!", 400, 400)],
    });
    const r = await performCall(call("click_element", { index: 1 }), ctx);
    expect(r).toMatchObject({ error: true, text: expect.stringMatching(/no longer where it was/) });
    expect(acts).toEqual([]);
  });

  it("returns done without acting, and a screenshot request as a plain observation", async () => {
    const { ctx, acts } = context();
    expect(await performCall(call("done", { summary: "finished" }), ctx)).toMatchObject({
      kind: "done",
      summary: "finished",
    });
    expect(await performCall(call("screenshot", {}), ctx)).toMatchObject({ kind: "acted", error: false });
    expect(acts).toEqual([]);
  });
});
