/**
 * Screen actions as xdotool command lines: a pure mapping, so what the X11 desktop receives is tested
 * without a display. Each inner array is one xdotool run (one X connection keeps its events in order).
 */
import type { ScreenAction } from "../types.js";
import { toXdotoolKeys } from "./keys.js";

/**
 * Pixels one wheel notch scrolls in Chromium on X11 (measured here: one notch = 120 px); dy in pixels
 * becomes the nearest number of notches.
 */
export const PIXELS_PER_WHEEL_NOTCH = 120;
/** Characters per `xdotool type` run: text arrives as keystrokes in bursts, never one paste. */
export const XDOTOOL_TYPE_CHUNK = 16;
/** Delay between typed characters: fast, yet every key is a separate X event an app can see. */
const TYPE_DELAY_MS = 4;
const DOUBLE_CLICK_DELAY_MS = 60;
const WHEEL_DELAY_MS = 20;
const BUTTONS = { left: "1", middle: "2", right: "3" } as const;

/** No `--sync` on mousemove: it fails when the pointer is already there. */
const moveTo = (x: number, y: number) => ["mousemove", String(Math.round(x)), String(Math.round(y))];

export function xdotoolCommands(action: Exclude<ScreenAction, { kind: "wait" }>): string[][] {
  switch (action.kind) {
    case "click":
      return [[...moveTo(action.x, action.y), "click", BUTTONS[action.button ?? "left"]]];
    case "double_click":
      return [
        [
          ...moveTo(action.x, action.y),
          "click",
          "--repeat",
          "2",
          "--delay",
          String(DOUBLE_CLICK_DELAY_MS),
          "1",
        ],
      ];
    case "move":
      return [moveTo(action.x, action.y)];
    case "drag": {
      // A midpoint, so apps that track motion (sliders, drag-and-drop) see a drag, not a jump.
      const mid = { x: (action.from.x + action.to.x) / 2, y: (action.from.y + action.to.y) / 2 };
      return [
        [
          ...moveTo(action.from.x, action.from.y),
          "mousedown",
          "1",
          ...moveTo(mid.x, mid.y),
          ...moveTo(action.to.x, action.to.y),
          "mouseup",
          "1",
        ],
      ];
    }
    case "type": {
      const runs: string[][] = [];
      for (let i = 0; i < action.text.length; i += XDOTOOL_TYPE_CHUNK) {
        runs.push([
          "type",
          "--delay",
          String(TYPE_DELAY_MS),
          "--",
          action.text.slice(i, i + XDOTOOL_TYPE_CHUNK),
        ]);
      }
      return runs;
    }
    case "key":
      return [["key", "--clearmodifiers", toXdotoolKeys(action.keys)]];
    case "scroll": {
      const notches = (px: number) => Math.round(Math.abs(px) / PIXELS_PER_WHEEL_NOTCH);
      const wheel = (n: number, button: string) =>
        n > 0 ? ["click", "--repeat", String(n), "--delay", String(WHEEL_DELAY_MS), button] : [];
      // X11 wheel buttons: 4 up, 5 down, 6 left, 7 right.
      return [
        [
          ...moveTo(action.x, action.y),
          ...wheel(notches(action.dy), action.dy > 0 ? "5" : "4"),
          ...wheel(notches(action.dx), action.dx > 0 ? "7" : "6"),
        ],
      ];
    }
    default: {
      const never: never = action;
      throw new Error(`x11 environment: unknown action ${JSON.stringify(never)}`);
    }
  }
}
