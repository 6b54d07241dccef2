/**
 * Screen actions as Playwright input on one page, with the pointer's resting place kept: a press goes
 * where the pointer already is, so the confirmation gate's reading (which moved it there) and the
 * press meet the same page. The browser environment's counterpart of x11-input.ts.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Page } from "playwright-core";
import { MAX_WAIT_SECONDS } from "../actions.js";
import type { ScreenAction } from "../types.js";
import { toPlaywrightKeys } from "./keys.js";

/** Characters typed per keyboard burst: text arrives as keystrokes, never one paste. */
export const TYPE_CHUNK = 16;
/** Resolves after the page has drawn two frames (what an input event changed is on screen by then). */
export const TWO_FRAMES = "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))";

export class PageInput {
  /** Where the pointer rests (Playwright's mouse starts at 0,0 on each page). */
  private pointer = { x: 0, y: 0 };

  /** `page` gives the page input goes to now (it throws when there is none). */
  constructor(private readonly page: () => Page) {}

  /** A new page, or none: its mouse starts at the corner. */
  reset(): void {
    this.pointer = { x: 0, y: 0 };
  }

  /** The pointer to (x, y), unless it rests there already (a move there would be an event for the page). */
  async moveTo(x: number, y: number): Promise<void> {
    if (this.pointer.x === x && this.pointer.y === y) return;
    await this.page().mouse.move(x, y);
    this.pointer = { x, y };
  }

  async send(action: ScreenAction): Promise<void> {
    const page = this.page();
    const mouse = page.mouse;
    switch (action.kind) {
      case "click": {
        // Pressed where the pointer already rests (the gate's reading put it there): no move first,
        // so a page that swaps what is under the pointer on mousemove has no move to react to.
        await this.moveTo(action.x, action.y);
        const button = action.button ?? "left";
        await mouse.down({ button });
        return mouse.up({ button });
      }
      case "double_click":
        await this.moveTo(action.x, action.y);
        await mouse.down({ clickCount: 1 });
        await mouse.up({ clickCount: 1 });
        await mouse.down({ clickCount: 2 });
        return mouse.up({ clickCount: 2 });
      case "move":
        return this.moveTo(action.x, action.y);
      case "drag":
        await this.moveTo(action.from.x, action.from.y);
        await mouse.down();
        // Intermediate moves, so pages that track mousemove (sliders, drag-and-drop) see a drag.
        await mouse.move(action.to.x, action.to.y, { steps: 10 });
        this.pointer = { ...action.to };
        return mouse.up();
      case "type":
        for (let i = 0; i < action.text.length; i += TYPE_CHUNK) {
          await page.keyboard.type(action.text.slice(i, i + TYPE_CHUNK));
        }
        return;
      case "key":
        return page.keyboard.press(toPlaywrightKeys(action.keys));
      case "scroll":
        await this.moveTo(action.x, action.y);
        await mouse.wheel(action.dx, action.dy);
        // The wheel is asynchronous in the renderer; let the scroll land before the next capture.
        return void (await page.evaluate(TWO_FRAMES));
      case "wait":
        return sleep(Math.min(Math.max(0, action.seconds), MAX_WAIT_SECONDS) * 1000);
      default: {
        const never: never = action;
        throw new Error(`browser environment: unknown action ${JSON.stringify(never)}`);
      }
    }
  }
}
