/**
 * Turn an accessibility tree into the numbered lines a computer-use model reads (`[k] role "name"`),
 * within a character budget. A pure function: the browser side builds the tree, this decides what the
 * model sees, so the rule is tested on plain data.
 */
import type { UiElement } from "../types.js";

/**
 * Roles a user can act on. Everything else (headings, text, groups) is context, not a target. Chromium's
 * searchbox, spinbutton, switch and menuitemcheckbox/radio arrive already aliased (a11y.ts) to textbox,
 * checkbox and menuitem. "row" is left out: a data table's rows have it too, and in a grid the gridcell
 * inside the row is the target (listing both would number one control twice).
 */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  "button",
  "link",
  "textbox",
  "checkbox",
  "combobox",
  "menuitem",
  "tab",
  "radio",
  // A listbox's entries (an inbox's rows, a <select size>'s options) are what a click or arrow key picks.
  "option",
  "gridcell",
  "treeitem",
  // A cross-origin <iframe> (a11y.ts): its content is not read, but a person sees it and may click into it.
  "frame",
  "slider",
  // <input type=date|datetime-local|month|week>, <input type=time>, <input type=color> (a11y.ts aliases).
  "date",
  "time",
  "color",
  // A plain element its script makes a control: a pointer cursor, a listener (pointer-regions.ts).
  "clickable",
]);

/** Listed at most out of sight (scrolled out of a container or the viewport), after the ones in sight. */
export const MAX_OFFSCREEN = 100;
export const OFFSCREEN = "offscreen";

/** One node of an accessibility tree; `bbox` is [x0, y0, x1, y1] in screen pixels. */
export interface AxTreeNode {
  role: string;
  name: string;
  bbox: [number, number, number, number];
  visible: boolean;
  children: AxTreeNode[];
  /** Extra state worth telling the model: disabled, checked, expanded, value=…, offscreen */
  states?: string[];
  /** The environment's handle on the element (Chromium's backend node id). */
  ref?: number;
  /** Where a click reaches it when not at its box's centre (UiElement.point). */
  point?: { x: number; y: number };
}

export interface Serialized {
  /** The lines joined by "\n", with a final `[+m more]` when elements were cut. */
  text: string;
  /** Centre of element k's box at index k-1, for every listed element, including cut ones. */
  boxes: Array<[number, number]>;
  /** The same elements as the contract's UiElement (index 1-based, box as x/y/width/height). */
  elements: UiElement[];
  /** How many elements did not fit the budget. */
  cut: number;
}

/**
 * Interactive, visible nodes whose ancestors are all visible, in depth-first pre-order: the ones on
 * screen first, then (at most MAX_OFFSCREEN) the ones marked offscreen, so what can be clicked now
 * is numbered first and a character budget cuts what is out of sight first.
 */
export function interactiveNodes(tree: AxTreeNode): AxTreeNode[] {
  const seen: AxTreeNode[] = [];
  const away: AxTreeNode[] = [];
  const walk = (node: AxTreeNode): void => {
    // An invisible node hides its whole subtree: a collapsed menu's items are not on screen.
    if (!node.visible) return;
    const [x0, y0, x1, y1] = node.bbox;
    if (INTERACTIVE_ROLES.has(node.role) && x1 > x0 && y1 > y0)
      (node.states?.includes(OFFSCREEN) ? away : seen).push(node);
    for (const child of node.children) walk(child);
  };
  walk(tree);
  return [...seen, ...away.slice(0, MAX_OFFSCREEN)];
}

/** Whether any of the element is on screen (it is not listed `offscreen`). */
export function inSight(el: Pick<UiElement, "states">): boolean {
  return !el.states?.includes(OFFSCREEN);
}

/** Where a click reaches the element: its hit point, else its box's centre; none when it is offscreen. */
export function clickPoint(
  el: Pick<UiElement, "box" | "point" | "states">,
): { x: number; y: number } | undefined {
  if (el.states?.includes(OFFSCREEN)) return undefined;
  return el.point ?? boxCentre(el);
}

/** One element's line. States go after the name so the `[k] role "name"` prefix stays the same. */
export function elementLine(index: number, node: Pick<AxTreeNode, "role" | "name" | "states">): string {
  const name = node.name.replace(/\s+/g, " ").trim().replaceAll('"', '\\"');
  const states = node.states && node.states.length > 0 ? ` (${node.states.join(", ")})` : "";
  return `[${index}] ${node.role} "${name}"${states}`;
}

/**
 * `serialize(tree, budget)`: keep lines in order while the newline-joined text stays within
 * `budget` characters, stop at the first line that does not fit, then add `[+m more]` (not counted).
 */
export function serialize(tree: AxTreeNode, budget: number): Serialized {
  const nodes = interactiveNodes(tree);
  const boxes = nodes.map((n): [number, number] => [
    (n.bbox[0] + n.bbox[2]) / 2,
    (n.bbox[1] + n.bbox[3]) / 2,
  ]);
  const elements = nodes.map((n, i): UiElement => {
    const [x0, y0, x1, y1] = n.bbox;
    const el: UiElement = {
      index: i + 1,
      role: n.role,
      name: n.name,
      box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
    };
    if (n.states && n.states.length > 0) el.states = [...n.states];
    if (n.ref !== undefined) el.ref = n.ref;
    if (n.point) el.point = { ...n.point };
    return el;
  });
  const { text, listed } = fitLines(elements, budget);
  return { text, boxes, elements, cut: elements.length - listed };
}

/** The element list the model was shown, as text (what an a11y observation's text block is). */
export function describeElements(elements: UiElement[], budget: number): string {
  return fitLines(elements, budget).text;
}

function fitLines(elements: UiElement[], budget: number): { text: string; listed: number } {
  const lines: string[] = [];
  let used = 0;
  for (const el of elements) {
    const line = elementLine(el.index, el);
    const next = lines.length === 0 ? line.length : used + 1 + line.length;
    if (next > budget) break;
    lines.push(line);
    used = next;
  }
  const listed = lines.length;
  if (listed < elements.length) lines.push(`[+${elements.length - listed} more]`);
  return { text: lines.join("\n"), listed };
}

/** Centre of an element's box: where `click_element(k)` clicks. */
export function boxCentre(el: Pick<UiElement, "box">): { x: number; y: number } {
  return { x: el.box.x + el.box.width / 2, y: el.box.y + el.box.height / 2 };
}
