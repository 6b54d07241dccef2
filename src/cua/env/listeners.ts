/**
 * Which elements a page's scripts listen on for the pointer: one CDP call,
 * `DOMDebugger.getEventListeners` on the document with the whole subtree (same-origin frames and
 * shadow roots included), gives every listener with its element's backend node id — inline `onclick`
 * attributes, `el.onclick = …` and `addEventListener` alike (a jQuery or d3 `.on('click')` is one).
 * This is how an element with a click handler and no pointer cursor (MiniWoB's SVG numbers, a
 * coloured box, a sortable list) gets into the element list. Measured here: ~1–3 ms on a small page.
 */
import type { CdpSender } from "./a11y.js";

/** Events that mean a press on the element does something. */
const PRESS_EVENTS = new Set([
  "click",
  "dblclick",
  "auxclick",
  "mousedown",
  "mouseup",
  "pointerdown",
  "pointerup",
  "touchstart",
  "touchend",
]);
/** Events that mean the pointer resting on (or crossing) the element does something. */
const HOVER_EVENTS = new Set([
  "mouseenter",
  "mouseover",
  "mouseleave",
  "mouseout",
  "mousemove",
  "pointerenter",
  "pointerover",
  "pointerleave",
  "pointermove",
]);

/** backend node id → what its listeners answer: a press, or only the pointer over it. */
export type Listening = Map<number, "press" | "hover">;

interface Listener {
  type: string;
  backendNodeId?: number;
}

/** The page's pointer listeners by element; empty when the page cannot be read (never a failed capture). */
export async function pointerListeners(cdp: CdpSender): Promise<Listening> {
  const out: Listening = new Map();
  const group = "acilab-listeners";
  try {
    const { result } = (await cdp.send("Runtime.evaluate", {
      expression: "document",
      objectGroup: group,
    })) as {
      result: { objectId?: string };
    };
    if (!result.objectId) return out;
    const { listeners } = (await cdp.send("DOMDebugger.getEventListeners", {
      objectId: result.objectId,
      depth: -1,
      pierce: true,
    })) as { listeners: Listener[] };
    return listening(listeners);
  } catch {
    return out;
  } finally {
    await cdp.send("Runtime.releaseObjectGroup", { objectGroup: group }).catch(() => undefined);
  }
}

/** A pure reading of the listener list: a press listener wins over hover ones on the same element. */
export function listening(listeners: readonly Listener[]): Listening {
  const out: Listening = new Map();
  for (const l of listeners) {
    if (l.backendNodeId === undefined) continue;
    if (PRESS_EVENTS.has(l.type)) out.set(l.backendNodeId, "press");
    else if (HOVER_EVENTS.has(l.type) && !out.has(l.backendNodeId)) out.set(l.backendNodeId, "hover");
  }
  return out;
}
