/**
 * Chromium's accessibility tree with screen boxes, in a few CDP calls made together:
 * `Accessibility.getFullAXTree` (roles, computed names, states), `DOMSnapshot.captureSnapshot`
 * (layout boxes, styles and attributes of every node, keyed by the same backend node ids) and the
 * page's pointer listeners (./listeners.ts). What the tree leaves out or unnamed is added from the
 * snapshot: controls a page's script makes (./pointer-regions.ts), a field's label written beside it
 * (./element-names.ts), elements scrolled out of sight (`offscreen`, ./clip.ts). Measured here:
 * ~10–30 ms per capture on a small page, against ~35 ms for Playwright's ariaSnapshot, which has no
 * boxes.
 */
import type { Size, UiElement } from "../types.js";
import { type Box, SNAPSHOT_STYLES, type Snapshot } from "./dom-snapshot.js";
import { iconName, kinOf, nearbyLabel, shapeName } from "./element-names.js";
import { checkHitPoints } from "./hit-points.js";
import { type AxNode, type FrameTree, type Layer, layerOf, place, roleOf } from "./layers.js";
import { pointerListeners } from "./listeners.js";
import { type AxTreeNode, OFFSCREEN, serialize } from "./serialize.js";

/** Anything that can send a CDP command (Playwright's CDPSession). */
export interface CdpSender {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

/** The longest value shown in a state ("value=…"); a textarea's whole content would eat the budget. */
const MAX_VALUE_CHARS = 40;
/** Controls whose parts (a date's day, month and year fields, its picker button) are one control. */
const WHOLE_CONTROLS = new Set(["date", "time", "color"]);
/**
 * A date or time field is several fields in one box (month, day, year); a click at its centre lands
 * on the year, where typed digits go wrong. Its click point is its first field, where a person types
 * the whole date: this far in from its left edge.
 */
const FIRST_FIELD_PX = 8;
/** Fields a label written beside them names; a checkbox's or radio's label follows it. */
const FIELDS = new Set(["textbox", "combobox", "slider", "date", "time", "color", "checkbox", "radio"]);
/** Controls an icon or a colour names when the tree gives no name (a toolbar's icons, a coloured key). */
const PRESSABLE = new Set(["button", "link", "menuitem", "tab", "option", "gridcell", "treeitem"]);

/**
 * Where the page's viewport sits on the screen: (0,0) for a headless browser; the window's content
 * origin for a browser inside an X11 desktop.
 */
export interface ViewportPlacement {
  offset: { x: number; y: number };
  viewport: Size;
}

/**
 * The accessibility tree of the page, same-origin <iframe>s included (their elements placed on the
 * screen by the frame's position, clipped to it); a cross-origin frame is one `frame` node named by
 * its origin and marked "cross-origin": its content belongs to another site and is not read.
 */
export async function collectAxTree(cdp: CdpSender, placement: ViewportPlacement): Promise<AxTreeNode> {
  return (await captureTree(cdp, placement)).tree;
}

async function captureTree(
  cdp: CdpSender,
  placement: ViewportPlacement,
): Promise<{ tree: AxTreeNode; contains: (outer: number, inner: number) => boolean }> {
  const [ax, snap, tree, listening] = await Promise.all([
    cdp.send("Accessibility.getFullAXTree") as Promise<{ nodes: AxNode[] }>,
    cdp.send("DOMSnapshot.captureSnapshot", { computedStyles: SNAPSHOT_STYLES }) as Promise<Snapshot>,
    (cdp.send("Page.getFrameTree") as Promise<{ frameTree: FrameTree }>).catch(() => undefined),
    pointerListeners(cdp),
  ]);
  const { offset, viewport } = placement;
  const clip: Box = [offset.x, offset.y, offset.x + viewport.width, offset.y + viewport.height];
  const main = await layerOf(cdp, snap, 0, ax.nodes, offset, clip, tree, listening);
  const root = ax.nodes.find((n) => n.parentId === undefined) ?? ax.nodes[0];
  if (!root) throw new Error("accessibility tree: Chromium returned no nodes — is a page loaded?");
  return { tree: build(root, main, 0), contains: containment(main) };
}

function build(node: AxNode, layer: Layer, depth: number): AxTreeNode {
  const at = place(layer, node.backendDOMNodeId);
  const rawRole = String(node.role?.value ?? "");
  const inner = node.backendDOMNodeId === undefined ? undefined : layer.frames.get(node.backendDOMNodeId);
  const listed = !node.ignored && at !== undefined;
  const bbox: Box = listed ? at.box : [0, 0, 0, 0];
  // An <iframe> with no document in this snapshot is rendered by another process: another site.
  const crossOrigin =
    inner && "origin" in inner
      ? inner.origin
      : rawRole === "Iframe" && !inner
        ? "of another site"
        : undefined;
  if (crossOrigin !== undefined)
    return {
      role: "frame",
      name: `cross-origin frame ${crossOrigin}`,
      bbox,
      visible: true,
      children: [],
      states: ["cross-origin", ...(at?.offscreen ? [OFFSCREEN] : [])],
    };
  const role = node.ignored ? "none" : roleOf(node);
  const childIds = WHOLE_CONTROLS.has(role) ? [] : (node.childIds ?? []);
  let children =
    depth > 500
      ? []
      : childIds.flatMap((id) => (layer.byId.has(id) ? [build(layer.byId.get(id)!, layer, depth + 1)] : []));
  const clickables = layer.regions.byHost.get(node.nodeId);
  if (clickables && depth <= 500) children = withClickables(node, layer, children, clickables);
  if (inner && !("origin" in inner) && depth <= 500) {
    const innerRoot = [...inner.byId.values()].find((n) => n.parentId === undefined);
    if (innerRoot) children = [...children, build(innerRoot, inner, depth + 1)];
  }
  // Ignored nodes (layout wrappers) stay in the walk but are never listed: their children may be.
  const states = listed ? statesOf(node) : [];
  if (listed && at.offscreen) states.push(OFFSCREEN);
  const own = String(node.name?.value ?? "");
  return {
    role,
    name: own.trim() === "" && listed ? unnamed(layer, node, role) : own,
    bbox,
    visible: true,
    children,
    ...(states.length > 0 ? { states } : {}),
    ...(node.backendDOMNodeId !== undefined ? { ref: node.backendDOMNodeId } : {}),
    ...((role === "date" || role === "time") && listed && !at.offscreen
      ? {
          point: {
            x: bbox[0] + Math.min(FIRST_FIELD_PX, (bbox[2] - bbox[0]) / 2),
            y: (bbox[1] + bbox[3]) / 2,
          },
        }
      : {}),
  };
}

/**
 * A name for a control the tree leaves unnamed, from what a person reads: a field's placeholder, else
 * the label written beside it without `for` (the text before it in its row or just above it; after it
 * for a checkbox or radio); a button's or link's icon, else its colour.
 */
function unnamed(layer: Layer, node: AxNode, role: string): string {
  const view = layer.view;
  const n = node.backendDOMNodeId === undefined ? undefined : layer.index.get(node.backendDOMNodeId);
  const box = n === undefined ? undefined : view?.box(n);
  if (!view || n === undefined || !box) return "";
  // A colour only when it has a name: a plain button's default grey ("#efefef") says nothing.
  if (PRESSABLE.has(role)) return iconName(view, n) || shapeName(view, n).replace(/^#.*/, "");
  if (!FIELDS.has(role)) return "";
  const placeholder = view.attr(n, "placeholder")?.trim();
  if (placeholder) return placeholder;
  const after = role === "checkbox" || role === "radio";
  return nearbyLabel(box, layer.regions.texts, {
    side: after ? "after" : "before",
    above: !after,
    related: kinOf(view, n),
  });
}

/** A node's children with the clickables it holds placed among them in document order. */
function withClickables(
  node: AxNode,
  layer: Layer,
  children: AxTreeNode[],
  clickables: NonNullable<ReturnType<Layer["regions"]["byHost"]["get"]>>,
): AxTreeNode[] {
  const ids = (node.childIds ?? []).filter((id) => layer.byId.has(id));
  // A child without a DOM node (a pseudo-element's text) keeps the place of the one before it.
  let last = -1;
  const placed = children.map((child, i) => {
    const backendId = layer.byId.get(ids[i] ?? "")?.backendDOMNodeId;
    last = (backendId === undefined ? undefined : layer.regions.order.get(backendId)) ?? last;
    return { order: last, child };
  });
  for (const c of clickables) {
    const at = place(layer, c.backendId);
    if (!at) continue;
    const states = at.offscreen ? [...c.states, OFFSCREEN] : c.states;
    placed.push({
      order: c.order,
      child: {
        role: c.role,
        name: c.name,
        bbox: at.box,
        visible: true,
        children: [],
        ...(states.length > 0 ? { states } : {}),
        ref: c.backendId,
      },
    });
  }
  // A stable sort: children already in order stay so.
  return placed.sort((a, b) => a.order - b.order).map((p) => p.child);
}

/** Whether one element holds another (backend node ids, within one document): a hit on a child is a hit. */
function containment(main: Layer): (outer: number, inner: number) => boolean {
  const layers: Layer[] = [];
  const collect = (l: Layer) => {
    layers.push(l);
    for (const f of l.frames.values()) if (!("origin" in f)) collect(f);
  };
  collect(main);
  return (outer, inner) => {
    for (const l of layers) {
      let n = l.index.get(inner);
      if (n === undefined || !l.view) continue;
      for (let depth = 0; n !== undefined && depth < 200; depth++, n = l.view.parent(n))
        if (l.view.ids[n] === outer) return true;
      return false;
    }
    return false;
  };
}

/**
 * Elements listed per capture at most: a screen holds a few hundred controls a person could tell
 * apart; past that (a grid of thousands of tiny buttons) the list and the marks would only be noise,
 * and the first ones in document order are kept (those in sight before those out of it).
 */
export const MAX_ELEMENTS = 300;

/**
 * The interactive elements, numbered in document order, those in sight first (what a11y and som
 * observations carry); a script-made control or an icon whose centre the page's hit test gives to
 * something else gets the point nearest its centre that reaches it.
 */
export async function collectElements(cdp: CdpSender, placement: ViewportPlacement): Promise<UiElement[]> {
  const { tree, contains } = await captureTree(cdp, placement);
  // The budget only shapes the text; every element up to the cap is returned, so click_element can
  // reach ones the text cut too.
  const elements = serialize(tree, Number.MAX_SAFE_INTEGER).elements.slice(0, MAX_ELEMENTS);
  return checkHitPoints(cdp, elements, placement.offset, contains);
}

function statesOf(node: AxNode): string[] {
  const states: string[] = [];
  const prop = (name: string) => node.properties?.find((p) => p.name === name)?.value.value;
  if (prop("disabled") === true) states.push("disabled");
  const checked = prop("checked");
  if (checked === "true" || checked === true) states.push("checked");
  else if (checked === "mixed") states.push("mixed");
  const expanded = prop("expanded");
  if (expanded !== undefined) states.push(expanded === true ? "expanded" : "collapsed");
  if (prop("focused") === true) states.push("focused");
  if (prop("required") === true) states.push("required");
  // A slider's value is a number; a date's, a colour's or a field's is text.
  const raw = node.value?.value;
  const value = typeof raw === "number" ? String(raw) : raw;
  if (typeof value === "string" && value !== "") {
    const short = value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value;
    states.push(`value="${short.replace(/\s+/g, " ")}"`);
  }
  return states;
}
