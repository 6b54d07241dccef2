/**
 * What the model reads each step besides the image: the result of its action, any warning, and (for
 * a11y / som / dom observations) the screen's text. Screen text is written by whoever wrote the page,
 * so it travels inside a marked block the system prompt tells the model to treat as data.
 */
import { clickPoint, elementLine } from "./env/serialize.js";
import { toModel } from "./scaling.js";
import type { Capture, ObserveKind, Size, UiElement } from "./types.js";

/** Characters of element list per observation: ~1,000 tokens, under the cost of one screenshot. */
export const ELEMENT_BUDGET_CHARS = 4000;
/** Characters of cleaned DOM per observation: ~3,000 tokens, about two screenshots. */
export const DOM_BUDGET_CHARS = 12_000;

const OPEN = '<screen_content source="application" trust="untrusted">';
const CLOSE = "</screen_content>";

/**
 * Wraps text that came from the screen. A page that writes the closing tag itself cannot end the
 * block early: every `</screen_content` inside is defanged first.
 */
export function wrapScreenText(text: string): string {
  const safe = text.replace(/<\/?\s*screen_content/gi, (m) => m.replace("<", "&lt;"));
  return `${OPEN}\n${safe}\n${CLOSE}`;
}

/**
 * Numbered elements as `[k] role "name" (states) at (x, y)`, where a click reaches each (its centre,
 * or the point its hit test gave) in the MODEL image's pixels, in order, within `budget` characters;
 * `[+m more]` when cut. One marked `offscreen` has no point: click_element scrolls it into view.
 * Returns how many were listed, because only those may be named by click_element.
 */
export function formatElements(
  elements: readonly UiElement[],
  model: Size,
  screen: Size,
  budget = ELEMENT_BUDGET_CHARS,
): { text: string; listed: number } {
  const lines: string[] = [];
  let used = 0;
  for (const el of elements) {
    const p = clickPoint(el);
    const c = p && toModel(p.x, p.y, model, screen);
    const line = c ? `${elementLine(el.index, el)} at (${c.x}, ${c.y})` : elementLine(el.index, el);
    const next = lines.length === 0 ? line.length : used + 1 + line.length;
    if (next > budget) break;
    lines.push(line);
    used = next;
  }
  const listed = lines.length;
  if (listed < elements.length) lines.push(`[+${elements.length - listed} more]`);
  return { text: lines.join("\n"), listed };
}

export interface ScreenText {
  /** The text block to append (empty for a screenshot-only observation). */
  text: string;
  /** Elements click_element may name this step (0 when none were numbered). */
  numbered: number;
}

/** The screen's text part of an observation, as `observe` asks. */
export function screenText(capture: Capture, observe: ObserveKind, model: Size): ScreenText {
  switch (observe) {
    case "screenshot":
      return { text: "", numbered: 0 };
    case "a11y":
    case "som": {
      const elements = capture.elements ?? [];
      if (elements.length === 0) {
        return { text: "Interactive elements: none visible.", numbered: 0 };
      }
      const { text, listed } = formatElements(elements, model, capture.size);
      const head =
        observe === "som"
          ? "Interactive elements (numbers match the marks on the screenshot; centres in screenshot pixels):"
          : "Interactive elements (centres in screenshot pixels):";
      return { text: `${head}\n${wrapScreenText(text)}`, numbered: listed };
    }
    case "dom": {
      const dom = capture.dom ?? "";
      const cut = dom.length > DOM_BUDGET_CHARS ? `${dom.slice(0, DOM_BUDGET_CHARS)}\n[… DOM cut]` : dom;
      return { text: `Page DOM (cleaned):\n${wrapScreenText(cut)}`, numbered: 0 };
    }
  }
}

/** Joins the non-empty parts of an observation with blank lines. */
export function joinParts(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => p !== undefined && p !== "").join("\n\n");
}
