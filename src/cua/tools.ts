/**
 * The computer-use actions as tools of the shared registry (kind "computer"; `done` is "control").
 * The registry validates each call against the action's schema; each tool's `resolve` step then maps
 * the model's pixels to the screen and names what a click would hit (re-checking a numbered element
 * against a fresh snapshot), so the permission hook — the confirmation gate — judges the real target;
 * `execute` acts. Every mistake is an error observation; only the environment's own failures throw.
 */
import type { z } from "zod";
import type { BaseToolContext, ScreenPoint, ToolErrorKind, ToolResult } from "../tools/index.js";
import {
  type AnyTool,
  failure,
  type Resolution,
  type ToolDefinition,
  type ToolTarget,
} from "../tools/index.js";
import { CUA_ACTIONS, type CuaToolName, describeAction, toAction } from "./actions.js";
import { keyEffect, typedEffect } from "./activation.js";
import { clickPoint, inSight } from "./env/serialize.js";
import { combine, focusTarget, pressTarget } from "./reach.js";
import { checkModelPoint, toScreen } from "./scaling.js";
import type { Capture, CuaAction, Environment, ScreenAction, Size, UiElement } from "./types.js";

/** The frame the model is acting on: what its coordinates and element numbers refer to. */
export interface FrameView {
  screen: Size;
  /** The size of the image the model was shown (its coordinates are in these pixels). */
  model: Size;
  elements: readonly UiElement[];
  /** How many elements the observation numbered (click_element may name 1..numbered). */
  numbered: number;
  /** Why this frame's element labels could not be captured: clicks are then refused, never let through unchecked. */
  unchecked?: string;
}

/** The context of the computer tools. The observer replaces `frame` after every capture. */
export interface CuaToolContext extends BaseToolContext {
  env: Environment;
  frame: FrameView;
  /** A fresh capture, to re-check a numbered element before clicking it. */
  snapshot: () => Promise<Capture>;
  /** Pause after an input event so its effect is on screen before the next capture. */
  settleMs: number;
  /** What the environment executed this turn, in screen pixels; the observer takes it each turn. */
  executed: ScreenAction[];
  /** Set when the environment itself threw: the observer ends the run with env_error. */
  envFailure?: unknown;
}

/** What a computer tool will do: the action as the model asked it, and as the screen receives it. */
export interface ScreenStep {
  asked: CuaAction;
  screen: ScreenAction;
}

type Resolved = Resolution<ScreenStep>;
type Input<N extends CuaToolName> = z.infer<(typeof CUA_ACTIONS)[N]["schema"]>;

/** The tools a model is offered; `click_element` only when observations number the elements. */
export function cuaTools(options: { elements: boolean }): AnyTool<CuaToolContext>[] {
  const tools: AnyTool<CuaToolContext>[] = [
    acting("click", async (input, ctx) => {
      const p = mapPoint(input, ctx);
      if (!p.ok) return p;
      const screen: ScreenAction = { ...toAction("click", input), ...p.point } as ScreenAction;
      return step(toAction("click", input), screen, await pressTarget(ctx, p.point));
    }),
    acting("double_click", async (input, ctx) => {
      const p = mapPoint(input, ctx);
      if (!p.ok) return p;
      const target = await pressTarget(ctx, p.point);
      return step(toAction("double_click", input), { kind: "double_click", ...p.point }, target);
    }),
    acting("move", async (input, ctx) => {
      const p = mapPoint(input, ctx);
      return p.ok ? step(toAction("move", input), { kind: "move", ...p.point }) : p;
    }),
    acting("drag", async (input, ctx) => {
      const from = mapPoint(input.from, ctx);
      if (!from.ok) return from;
      const to = mapPoint(input.to, ctx);
      if (!to.ok) return to;
      // A press and a release on the same control is a click on it; on two controls, either may act.
      const target = combine([
        await pressTarget(ctx, from.point, "press"),
        await pressTarget(ctx, to.point, "release"),
      ]);
      return step(toAction("drag", input), { kind: "drag", from: from.point, to: to.point }, target);
    }),
    acting("type", async (input, ctx) => {
      const target = await focusTarget(ctx, typedEffect(input.text));
      return step(toAction("type", input), { kind: "type", text: input.text }, target);
    }),
    acting("key", async (input, ctx) => {
      const target = await focusTarget(ctx, keyEffect(input.keys));
      return step(toAction("key", input), { kind: "key", keys: input.keys }, target);
    }),
    acting("scroll", async (input, ctx) => {
      const p = mapPoint(input, ctx);
      if (!p.ok) return p;
      // The amounts are screenshot pixels too: a model that sees a half-size image scrolls half as far.
      const { model, screen } = ctx.frame;
      const dx = Math.round((input.dx * screen.width) / model.width);
      const dy = Math.round((input.dy * screen.height) / model.height);
      return step(toAction("scroll", input), { kind: "scroll", ...p.point, dx, dy });
    }),
    acting("wait", async (input) => step(toAction("wait", input), { kind: "wait", seconds: input.seconds })),
    {
      name: "screenshot",
      description: CUA_ACTIONS.screenshot.description,
      schema: CUA_ACTIONS.screenshot.schema,
      kind: "computer",
      // Nothing to do: every turn ends with a fresh capture anyway.
      execute: async () => ({ output: "ok: a fresh screenshot follows" }),
    } satisfies ToolDefinition<(typeof CUA_ACTIONS)["screenshot"]["schema"], CuaToolContext>,
    acting("click_element", clickElement),
    {
      name: "done",
      description: CUA_ACTIONS.done.description,
      schema: CUA_ACTIONS.done.schema,
      kind: "control",
      execute: async ({ summary }) => ({ output: "ok: done", submitted: true, summary }),
    } satisfies ToolDefinition<(typeof CUA_ACTIONS)["done"]["schema"], CuaToolContext>,
  ];
  return tools.filter((tool) => options.elements || tool.name !== "click_element");
}

/** A tool that acts on the screen: its schema and prose from the action table, its own resolve step. */
function acting<N extends CuaToolName>(
  name: N,
  resolve: (input: Input<N>, ctx: CuaToolContext) => Promise<Resolved>,
): ToolDefinition<(typeof CUA_ACTIONS)[N]["schema"], CuaToolContext, ScreenStep> {
  return {
    name,
    description: CUA_ACTIONS[name].description,
    schema: CUA_ACTIONS[name].schema,
    kind: "computer",
    resolve,
    execute: act,
  };
}

async function act(planned: ScreenStep, ctx: CuaToolContext): Promise<ToolResult> {
  await onEnvironment(ctx, async () => {
    await ctx.env.act(planned.screen);
    // A wait already paused; everything else gets the settle pause.
    if (planned.screen.kind !== "wait" && ctx.settleMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, ctx.settleMs));
    }
  });
  ctx.executed.push(planned.screen);
  return { output: `ok: ${describeAction(planned.asked)}` };
}

/**
 * The element the model numbered, looked up again in a fresh snapshot: pages re-render, and clicking
 * a stale box can hit whatever moved under it. Same role and name at the same number, or the one
 * element with that role and name elsewhere; anything else is an error the model can act on.
 */
async function clickElement(input: Input<"click_element">, ctx: CuaToolContext): Promise<Resolved> {
  const { index } = input;
  const { numbered, elements } = ctx.frame;
  if (numbered === 0) {
    return refuse(
      "invalid_arguments",
      "click_element needs a numbered element list, and this observation has none. Click by coordinates on the screenshot instead.",
    );
  }
  if (index > numbered) {
    return refuse(
      "invalid_arguments",
      `there is no element [${index}]; the list has ${numbered} (1..${numbered}).`,
    );
  }
  const seen = elements.find((e) => e.index === index);
  if (!seen) return refuse("not_found", `there is no element [${index}] in the last observation.`);
  let fresh = (await onEnvironment(ctx, () => ctx.snapshot())).elements ?? [];
  const same = (e: UiElement) => e.role === seen.role && e.name === seen.name;
  const find = (list: readonly UiElement[]) => {
    const atIndex = list.find((e) => e.index === index);
    const moved = list.filter(same);
    const byRef = moved.filter((e) => e.ref !== undefined && e.ref === seen.ref);
    return atIndex && same(atIndex) ? atIndex : moved.length === 1 ? moved[0] : byRef[0];
  };
  let element = find(fresh);
  if (!element) {
    return refuse(
      "not_found",
      `element [${index}] (${seen.role} "${seen.name}") is no longer where it was: the page changed since the screenshot. Look at the new observation and choose again.`,
    );
  }
  if (!inSight(element)) {
    // Out of sight (scrolled out of its panel, or below the fold): scroll it into view, look again.
    const hidden = element;
    const reveal = ctx.env.reveal?.bind(ctx.env);
    if (!reveal)
      return refuse(
        "not_found",
        `element [${index}] (${seen.role} "${seen.name}") is out of sight and this environment cannot scroll it into view: scroll to it, then choose again. Nothing was clicked.`,
      );
    await onEnvironment(ctx, () => reveal(hidden));
    fresh = (await onEnvironment(ctx, () => ctx.snapshot())).elements ?? [];
    const shown = fresh.filter(same).find((e) => e.ref === hidden.ref) ?? find(fresh);
    if (!shown || !inSight(shown))
      return refuse(
        "not_found",
        `element [${index}] (${seen.role} "${seen.name}") is still out of sight after scrolling it into view (something keeps it hidden): scroll yourself, then choose again from the new observation. Nothing was clicked.`,
      );
    element = shown;
  }
  const point = centre(element);
  // Judged on the fresh snapshot's boxes (what was just re-checked) and the live page at the point.
  const target = await pressTarget({ ...ctx, frame: { ...ctx.frame, elements: fresh } }, point);
  return step(toAction("click_element", input), { kind: "click", ...point }, target);
}

/** A point of the model's image on the screen, after checking it lies inside that image. */
function mapPoint(
  p: { x: number; y: number },
  ctx: CuaToolContext,
): { ok: true; point: ScreenPoint } | { ok: false; result: ToolResult } {
  const { model, screen } = ctx.frame;
  const problem = checkModelPoint(p.x, p.y, model);
  if (problem) return { ok: false, result: failure("outside_screen", `${problem}. Nothing was done.`) };
  return { ok: true, point: toScreen(p.x, p.y, model, screen) };
}

function step(asked: CuaAction, screen: ScreenAction, target?: ToolTarget): Resolved {
  return { ok: true, input: { asked, screen }, ...(target ? { target } : {}) };
}

function refuse(kind: ToolErrorKind, message: string): Resolved {
  return { ok: false, result: failure(kind, message) };
}

/** Where a click reaches it (its hit point, else its centre), in whole screen pixels. */
function centre(el: UiElement): ScreenPoint {
  const p = clickPoint(el) ?? { x: el.box.x + el.box.width / 2, y: el.box.y + el.box.height / 2 };
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

/** Runs an environment call, remembering its failure: the environment failing ends the run, not the turn. */
async function onEnvironment<T>(ctx: CuaToolContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    ctx.envFailure ??= err;
    throw err;
  }
}
