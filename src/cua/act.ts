/**
 * Acting: one tool call → validate → map to the screen → gate → env.act. Everything the model can get
 * wrong (bad input, a point outside its image, a stale element number, a blocked click) comes back as
 * text for the model; only the environment's own failures throw.
 */
import type { ToolCall } from "../messages/index.js";
import { describeAction, parseAction } from "./actions.js";
import { type ConfirmHook, type ConfirmRequest, DESTRUCTIVE_VOCABULARY, gateClick } from "./gate.js";
import { checkModelPoint, toScreen } from "./scaling.js";
import type { Capture, CuaAction, Environment, ScreenAction, Size, UiElement } from "./types.js";

export interface ActContext {
  env: Environment;
  /** The frame the model acted on: its screen size, model size and elements. */
  screen: Size;
  model: Size;
  elements: readonly UiElement[];
  /** How many elements the observation numbered (click_element may name 1..numbered). */
  numbered: number;
  confirm: ConfirmHook;
  /**
   * Why the gate cannot read this frame's labels (its element capture failed): clicks are refused,
   * never let through unchecked.
   */
  unchecked?: string;
  vocabulary?: readonly string[];
  /** A fresh capture, to re-check a numbered element before clicking it. */
  snapshot: () => Promise<Capture>;
  /** Pause after an input event so its effect is on screen before the next capture. */
  settleMs?: number;
}

export type ActResult =
  | { kind: "done"; action: CuaAction; summary: string }
  | {
      kind: "acted";
      /** The action as the model asked (undefined when the call did not parse). */
      action: CuaAction | undefined;
      /** What the environment executed, if anything. */
      screenAction: ScreenAction | undefined;
      text: string;
      error: boolean;
      blocked?: ConfirmRequest;
      /** Time inside the environment (act and any re-check snapshot). */
      envMs: number;
    };

const fail = (action: CuaAction | undefined, text: string): ActResult => ({
  kind: "acted",
  action,
  screenAction: undefined,
  text,
  error: true,
  envMs: 0,
});

export async function performCall(call: ToolCall, ctx: ActContext): Promise<ActResult> {
  const parsed = parseAction(call, ctx.numbered);
  if (!parsed.ok) return fail(undefined, parsed.error);
  const action = parsed.action;
  if (action.kind === "done") return { kind: "done", action, summary: action.summary };
  if (action.kind === "screenshot") {
    return {
      kind: "acted",
      action,
      screenAction: undefined,
      text: "ok: a fresh screenshot follows",
      error: false,
      envMs: 0,
    };
  }
  let envMs = 0;
  let elements = ctx.elements;
  let screenAction: ScreenAction;
  if (action.kind === "click_element") {
    const started = performance.now();
    const resolved = await recheckElement(action.index, ctx);
    envMs += performance.now() - started;
    if ("error" in resolved) return fail(action, resolved.error);
    elements = resolved.elements;
    screenAction = { kind: "click", ...centre(resolved.element) };
  } else {
    const mapped = toScreenAction(action, ctx.model, ctx.screen);
    if ("error" in mapped) return fail(action, mapped.error);
    screenAction = mapped;
  }
  if ((screenAction.kind === "click" || screenAction.kind === "double_click") && ctx.unchecked) {
    return {
      ...(fail(
        action,
        `blocked: the target of that click could not be checked for a destructive label (${ctx.unchecked}), so nothing was clicked. The observation below is a fresh capture; try again on it.`,
      ) as Extract<ActResult, { kind: "acted" }>),
      envMs,
    };
  }
  if (screenAction.kind === "click" || screenAction.kind === "double_click") {
    const decision = await gateClick(
      screenAction,
      elements,
      ctx.confirm,
      ctx.vocabulary ?? DESTRUCTIVE_VOCABULARY,
    );
    if (!decision.allow) {
      return {
        ...(fail(action, decision.observation) as Extract<ActResult, { kind: "acted" }>),
        blocked: decision.request,
        envMs,
      };
    }
  }
  const started = performance.now();
  await ctx.env.act(screenAction);
  // A wait already paused; everything else gets the settle pause (counted as environment time).
  if (screenAction.kind !== "wait" && ctx.settleMs) await new Promise((r) => setTimeout(r, ctx.settleMs));
  envMs += performance.now() - started;
  return { kind: "acted", action, screenAction, text: `ok: ${describeAction(action)}`, error: false, envMs };
}

function centre(el: UiElement): { x: number; y: number } {
  return { x: Math.round(el.box.x + el.box.width / 2), y: Math.round(el.box.y + el.box.height / 2) };
}

/**
 * The element the model numbered, looked up again in a fresh snapshot: pages re-render, and clicking
 * a stale box can hit whatever moved under it. Same role and name at the same number, or the one
 * element with that role and name elsewhere; anything else is an error the model can act on.
 */
async function recheckElement(
  index: number,
  ctx: ActContext,
): Promise<{ element: UiElement; elements: readonly UiElement[] } | { error: string }> {
  const seen = ctx.elements.find((e) => e.index === index);
  if (!seen) return { error: `error: there is no element [${index}] in the last observation.` };
  const fresh = (await ctx.snapshot()).elements ?? [];
  const same = (e: UiElement) => e.role === seen.role && e.name === seen.name;
  const atIndex = fresh.find((e) => e.index === index);
  if (atIndex && same(atIndex)) return { element: atIndex, elements: fresh };
  const moved = fresh.filter(same);
  if (moved.length === 1 && moved[0]) return { element: moved[0], elements: fresh };
  return {
    error: `error: element [${index}] (${seen.role} "${seen.name}") is no longer where it was: the page changed since the screenshot. Look at the new observation and choose again.`,
  };
}

/** Coordinates from the model's image to the screen, after checking them in the model's space. */
function toScreenAction(
  action: Exclude<CuaAction, { kind: "done" | "screenshot" | "click_element" }>,
  model: Size,
  screen: Size,
): ScreenAction | { error: string } {
  const map = (p: { x: number; y: number }) => {
    const problem = checkModelPoint(p.x, p.y, model);
    return problem ? { error: `error: ${problem}. Nothing was done.` } : toScreen(p.x, p.y, model, screen);
  };
  switch (action.kind) {
    case "click":
    case "double_click":
    case "move": {
      const p = map(action);
      return "error" in p ? p : { ...action, ...p };
    }
    case "scroll": {
      const p = map(action);
      if ("error" in p) return p;
      // The amounts are screenshot pixels too: a model that sees a half-size image scrolls half as far.
      const dx = Math.round((action.dx * screen.width) / model.width);
      const dy = Math.round((action.dy * screen.height) / model.height);
      return { kind: "scroll", ...p, dx, dy };
    }
    case "drag": {
      const from = map(action.from);
      if ("error" in from) return from;
      const to = map(action.to);
      if ("error" in to) return to;
      return { kind: "drag", from, to };
    }
    case "type":
    case "key":
    case "wait":
      return action;
  }
}
