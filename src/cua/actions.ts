/**
 * The computer-use action space: one zod schema and one description per action, with the caps that
 * bound them. ./tools.ts makes them tools of the shared registry (which validates calls and words
 * every mistake for the model); describeAction writes one line per action for logs and frames.
 */
import { z } from "zod";
import type { CuaAction } from "./types.js";

/** The longest pause `wait` may ask for: longer belongs to the harness's settle logic, not the model. */
export const MAX_WAIT_SECONDS = 10;
/** Text per `type` call; a longer text is typed in several calls, so one bad call cannot flood a field. */
export const MAX_TYPE_CHARS = 2000;
/** Pixels per scroll call on either axis; a screen or two is enough to look before scrolling again. */
export const MAX_SCROLL_PX = 3000;

const coord = z
  .number()
  .finite()
  .describe("pixels in the screenshot you were shown, from its top-left corner");
const point = z.object({ x: coord, y: coord }).strict();

/** Each action as a tool: what the model reads about it and the schema its input must pass. */
export const CUA_ACTIONS = {
  click: {
    description: "Click at a point of the screenshot. Aim at the centre of the control.",
    schema: point.extend({ button: z.enum(["left", "right", "middle"]).optional() }).strict(),
  },
  double_click: { description: "Double-click at a point of the screenshot.", schema: point },
  move: { description: "Move the mouse pointer to a point (hover), without clicking.", schema: point },
  drag: {
    description: "Press the left button at `from`, move to `to`, release.",
    schema: z.object({ from: point, to: point }).strict(),
  },
  type: {
    description: `Type text into the focused field, as keystrokes (at most ${MAX_TYPE_CHARS} characters a call). Click the field first.`,
    schema: z.object({ text: z.string().min(1).max(MAX_TYPE_CHARS) }).strict(),
  },
  key: {
    description:
      'Press a key or a combination, e.g. "Enter", "Tab", "shift+Tab", "ctrl+a", "ArrowDown". Keyboard navigation needs no coordinates and survives re-layout: prefer it where it works.',
    schema: z
      .object({ keys: z.string().min(1).max(100).regex(/^\S+$/, "one key or combo, no spaces, e.g. ctrl+a") })
      .strict(),
  },
  scroll: {
    description: `Scroll the wheel with the pointer at (x, y): dy > 0 scrolls down, dx > 0 right (pixels, at most ${MAX_SCROLL_PX}).`,
    schema: point
      .extend({
        dx: z.number().finite().min(-MAX_SCROLL_PX).max(MAX_SCROLL_PX).default(0),
        dy: z.number().finite().min(-MAX_SCROLL_PX).max(MAX_SCROLL_PX).default(0),
      })
      .strict()
      .refine((s) => s.dx !== 0 || s.dy !== 0, "give a non-zero dx or dy"),
  },
  wait: {
    description: `Wait for the screen to settle (a page loading, an animation), up to ${MAX_WAIT_SECONDS} seconds. Use it only when you can see something is still loading.`,
    schema: z.object({ seconds: z.number().positive().max(MAX_WAIT_SECONDS) }).strict(),
  },
  screenshot: { description: "Take a fresh screenshot without acting.", schema: z.object({}).strict() },
  click_element: {
    description: "Click the centre of element [index] of the numbered element list in the last observation.",
    schema: z.object({ index: z.number().int().min(1) }).strict(),
  },
  done: {
    description:
      "Finish: call it only once you can SEE the task is complete (e.g. a confirmation), with a one-line summary.",
    schema: z.object({ summary: z.string().min(1).max(2000) }).strict(),
  },
} as const;

export type CuaToolName = keyof typeof CUA_ACTIONS;
export const CUA_TOOL_NAMES = Object.keys(CUA_ACTIONS) as CuaToolName[];

/**
 * A validated call as the action it names. Each schema's output is its action minus `kind` (the tool
 * name), so renaming is all there is.
 */
export function toAction(name: CuaToolName, input: unknown): CuaAction {
  return { kind: name, ...(input as Record<string, unknown>) } as CuaAction;
}

/** One line for logs and contact sheets: `click (728, 410)`, `type "hello"`. */
export function describeAction(action: CuaAction): string {
  switch (action.kind) {
    case "click":
      return `click (${action.x}, ${action.y})${action.button && action.button !== "left" ? ` ${action.button}` : ""}`;
    case "double_click":
    case "move":
      return `${action.kind} (${action.x}, ${action.y})`;
    case "drag":
      return `drag (${action.from.x}, ${action.from.y}) → (${action.to.x}, ${action.to.y})`;
    case "type":
      return `type ${JSON.stringify(action.text.length > 40 ? `${action.text.slice(0, 39)}…` : action.text)}`;
    case "key":
      return `key ${action.keys}`;
    case "scroll":
      return `scroll (${action.x}, ${action.y}) dx=${action.dx} dy=${action.dy}`;
    case "wait":
      return `wait ${action.seconds}s`;
    case "screenshot":
      return "screenshot";
    case "click_element":
      return `click_element [${action.index}]`;
    case "done":
      return "done";
  }
}
