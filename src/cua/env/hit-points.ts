/**
 * Where a click on a listed element lands, checked with the page's own hit test (CDP's
 * `DOM.getNodeForLocation`, what `elementFromPoint` answers). An icon's box can be wider than what
 * it paints, or overlap its neighbour (MiniWoB's email actions: a click meant for "delete" landed
 * on the star beside it): when the centre is some other element's, the point nearest the centre
 * that is the element's own becomes its click point. Checked for script-made controls and small
 * elements (icons), in parallel: one round trip each, a few ms on a page of dozens.
 */
import type { UiElement } from "../types.js";
import type { CdpSender } from "./a11y.js";
import { CLICKABLE_ROLE } from "./pointer-regions.js";
import { clickPoint } from "./serialize.js";

/** Elements this small on both sides are icons: their centre is checked whatever their role. */
const ICON_PX = 48;
/** Points tried inside a box whose centre misses, per side (a 4×4 grid). */
const GRID = 4;

/**
 * `elements` with `point` set where the centre is not theirs. `contains(outer, inner)`: whether
 * backend node `inner` is `outer` or inside it. Elements the page cannot answer for keep their centre.
 */
export async function checkHitPoints(
  cdp: CdpSender,
  elements: UiElement[],
  offset: { x: number; y: number },
  contains: (outer: number, inner: number) => boolean,
): Promise<UiElement[]> {
  const hitAt = async (x: number, y: number): Promise<number | undefined> => {
    try {
      const r = (await cdp.send("DOM.getNodeForLocation", {
        x: Math.round(x - offset.x),
        y: Math.round(y - offset.y),
        includeUserAgentShadowDOM: true,
        ignorePointerEventsNone: true,
      })) as { backendNodeId?: number };
      return r.backendNodeId;
    } catch {
      return undefined;
    }
  };
  const reaches = async (el: UiElement, x: number, y: number) => {
    const hit = await hitAt(x, y);
    return hit !== undefined && el.ref !== undefined && contains(el.ref, hit);
  };
  await Promise.all(
    elements.map(async (el) => {
      const centre = clickPoint(el);
      if (!centre || el.ref === undefined || !needsCheck(el)) return;
      if (await reaches(el, centre.x, centre.y)) return;
      for (const p of gridPoints(el.box)) {
        if (await reaches(el, p.x, p.y)) {
          el.point = { x: Math.round(p.x), y: Math.round(p.y) };
          return;
        }
      }
    }),
  );
  return elements;
}

function needsCheck(el: UiElement): boolean {
  return el.role === CLICKABLE_ROLE || (el.box.width <= ICON_PX && el.box.height <= ICON_PX);
}

/** Points inside the box on a GRID×GRID lattice, nearest the centre first. */
export function gridPoints(box: UiElement["box"]): { x: number; y: number }[] {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < GRID; i++)
    for (let j = 0; j < GRID; j++)
      out.push({ x: box.x + ((i + 0.5) * box.width) / GRID, y: box.y + ((j + 0.5) * box.height) / GRID });
  return out.sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
}
