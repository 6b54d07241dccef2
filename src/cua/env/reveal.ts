/**
 * Scrolling an element listed `offscreen` into view before click_element presses it: CDP's
 * `DOM.scrollIntoViewIfNeeded` scrolls every container around it and the page, as far as needed and
 * no further. A node that is gone or cannot scroll is left as it is: the fresh capture that follows
 * says whether it came into sight, and click_element refuses, saying why, when it did not.
 */
import type { UiElement } from "../types.js";
import type { CdpSender } from "./a11y.js";
import { TWO_FRAMES } from "./browser-input.js";

export async function revealThroughCdp(
  cdp: CdpSender,
  element: UiElement,
  evaluate: (script: string) => Promise<unknown>,
): Promise<void> {
  if (element.ref === undefined) return;
  try {
    await cdp.send("DOM.scrollIntoViewIfNeeded", { backendNodeId: element.ref });
    // Scroll handlers (a virtual list filling in rows) get their frames before the capture.
    await evaluate(TWO_FRAMES);
  } catch {
    // Gone, or not scrollable: the capture after this tells.
  }
}
