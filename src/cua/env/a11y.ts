/**
 * Chromium's accessibility tree with screen boxes, in two CDP calls: `Accessibility.getFullAXTree`
 * (roles, computed names, states) and `DOMSnapshot.captureSnapshot` (layout boxes of every node, keyed
 * by the same backend node ids). Measured here: ~10–30 ms per capture on a small page, against
 * ~35 ms for Playwright's ariaSnapshot, which has no boxes.
 */
import type { Size, UiElement } from "../types.js";
import { type Box, CURSOR, layoutBoxes, SNAPSHOT_STYLES, type Snapshot, styles } from "./dom-snapshot.js";
import { type AxOfElement, CLICKABLE_ROLE, type PointerRegions, pointerRegions } from "./pointer-regions.js";
import { type AxTreeNode, INTERACTIVE_ROLES, serialize } from "./serialize.js";

/** Anything that can send a CDP command (Playwright's CDPSession). */
export interface CdpSender {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

interface AxValue {
  value?: unknown;
}
interface AxProperty {
  name: string;
  value: AxValue;
}
interface AxNode {
  nodeId: string;
  ignored: boolean;
  role?: AxValue;
  name?: AxValue;
  value?: AxValue;
  properties?: AxProperty[];
  childIds?: string[];
  parentId?: string;
  backendDOMNodeId?: number;
}
interface FrameTree {
  frame: { id: string; securityOrigin?: string; url: string };
  childFrames?: FrameTree[];
}

/**
 * Chromium's role names for controls the listed roles already cover; mapped so the model sees one
 * vocabulary (a search field is a textbox to click and type into).
 */
const ROLE_ALIASES: Record<string, string> = {
  searchbox: "textbox",
  spinbutton: "textbox",
  switch: "checkbox",
  menuitemcheckbox: "menuitem",
  menuitemradio: "menuitem",
  PopUpButton: "combobox",
  // <summary>: the click that opens a <details>.
  DisclosureTriangle: "button",
};

/** The longest value shown in a state ("value=…"); a textarea's whole content would eat the budget. */
const MAX_VALUE_CHARS = 40;

/**
 * Where the page's viewport sits on the screen: (0,0) for a headless browser; the window's content
 * origin for a browser inside an X11 desktop.
 */
export interface ViewportPlacement {
  offset: { x: number; y: number };
  viewport: Size;
}

/**
 * What one document contributes: its accessibility nodes and layout boxes, where its viewport sits
 * on the screen (`offset`) and the part of the screen it can show (`clip`: the viewport for the main
 * frame, the <iframe>'s content box for a frame inside it).
 */
interface Layer {
  byId: Map<string, AxNode>;
  boxes: Map<number, Box>;
  offset: { x: number; y: number };
  clip: Box;
  /** <iframe> backend node id → the layer of its document, or "cross-origin" (not read). */
  frames: Map<number, Layer | CrossOrigin>;
  /** Plain elements a script makes controls, by the accessibility node they sit under. */
  regions: PointerRegions;
}
interface CrossOrigin {
  origin: string;
}

/**
 * The accessibility tree of the page, same-origin <iframe>s included (their elements placed on the
 * screen by the frame's position, clipped to it); a cross-origin frame is one `frame` node named by
 * its origin and marked "cross-origin": its content belongs to another site and is not read.
 */
export async function collectAxTree(cdp: CdpSender, placement: ViewportPlacement): Promise<AxTreeNode> {
  const [ax, snap, tree] = await Promise.all([
    cdp.send("Accessibility.getFullAXTree") as Promise<{ nodes: AxNode[] }>,
    cdp.send("DOMSnapshot.captureSnapshot", { computedStyles: SNAPSHOT_STYLES }) as Promise<Snapshot>,
    (cdp.send("Page.getFrameTree") as Promise<{ frameTree: FrameTree }>).catch(() => undefined),
  ]);
  const { offset, viewport } = placement;
  const main = await layerOf(cdp, snap, 0, ax.nodes, offset, [0, 0, viewport.width, viewport.height], tree);
  const root = ax.nodes.find((n) => n.parentId === undefined) ?? ax.nodes[0];
  if (!root) throw new Error("accessibility tree: Chromium returned no nodes — is a page loaded?");
  return build(root, main, 0);
}

function build(node: AxNode, layer: Layer, depth: number): AxTreeNode {
  const box = screenBox(layer, node.backendDOMNodeId);
  const rawRole = String(node.role?.value ?? "");
  const inner = node.backendDOMNodeId === undefined ? undefined : layer.frames.get(node.backendDOMNodeId);
  const listed = !node.ignored && box !== undefined;
  const bbox: Box = listed ? box : [0, 0, 0, 0];
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
      states: ["cross-origin"],
    };
  const childIds = node.childIds ?? [];
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
  return {
    role: node.ignored ? "none" : roleOf(node),
    name: String(node.name?.value ?? ""),
    bbox,
    visible: true,
    children,
    ...(states.length > 0 ? { states } : {}),
  };
}

function roleOf(node: AxNode): string {
  const raw = String(node.role?.value ?? "");
  return ROLE_ALIASES[raw] ?? raw;
}

/**
 * Where an element is on the screen: its box in its document, moved by the document's offset and
 * clipped to the part of the screen the document shows (what a click reaches); undefined when it is
 * not rendered or not on screen.
 */
function screenBox(layer: Layer, backendId: number | undefined): Box | undefined {
  const doc = backendId === undefined ? undefined : layer.boxes.get(backendId);
  if (!doc) return undefined;
  const [cx0, cy0, cx1, cy1] = layer.clip;
  const x0 = Math.max(cx0, doc[0] + layer.offset.x);
  const y0 = Math.max(cy0, doc[1] + layer.offset.y);
  const x1 = Math.min(cx1, doc[2] + layer.offset.x);
  const y1 = Math.min(cy1, doc[3] + layer.offset.y);
  return x1 > x0 && y1 > y0 ? [x0, y0, x1, y1] : undefined;
}

/** A node's children with the clickables it holds placed among them in document order. */
function withClickables(
  node: AxNode,
  layer: Layer,
  children: AxTreeNode[],
  clickables: readonly { backendId: number; order: number; name: string }[],
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
    const bbox = screenBox(layer, c.backendId);
    if (bbox)
      placed.push({
        order: c.order,
        child: { role: CLICKABLE_ROLE, name: c.name, bbox, visible: true, children: [] },
      });
  }
  // A stable sort: children already in order stay so.
  return placed.sort((a, b) => a.order - b.order).map((p) => p.child);
}

/** Frames nested deeper than this are not read (a page that nests frames without end). */
const MAX_FRAME_DEPTH = 4;

/** Document `index`'s layer, with the layers of the frames inside it (same-origin ones read). */
async function layerOf(
  cdp: CdpSender,
  snap: Snapshot,
  index: number,
  nodes: AxNode[],
  offset: { x: number; y: number },
  clip: Box,
  tree: { frameTree: FrameTree } | undefined,
  depth = 0,
): Promise<Layer> {
  const doc = snap.documents[index];
  const layer: Layer = {
    byId: new Map(nodes.map((n) => [n.nodeId, n])),
    boxes: layoutBoxes(doc),
    offset,
    clip,
    frames: new Map(),
    regions: pointerRegions(doc, snap.strings, axOfElements(nodes)),
  };
  if (!doc || depth >= MAX_FRAME_DEPTH) return layer;
  const origins = new Map<string, string>();
  const walk = (t: FrameTree) => {
    origins.set(t.frame.id, t.frame.securityOrigin ?? new URL(t.frame.url).origin);
    for (const c of t.childFrames ?? []) walk(c);
  };
  if (tree) walk(tree.frameTree);
  const mainOrigin = tree ? origins.get(tree.frameTree.frame.id) : undefined;
  const ids = doc.nodes.backendNodeId ?? [];
  const content = doc.nodes.contentDocumentIndex ?? { index: [], value: [] };
  const styleOf = styles(doc, snap.strings);
  await Promise.all(
    content.index.map(async (nodeIndex, i) => {
      const frameNode = ids[nodeIndex];
      const childIndex = content.value[i];
      const box = frameNode === undefined ? undefined : layer.boxes.get(frameNode);
      if (frameNode === undefined || childIndex === undefined || !box) return;
      const frameId = snap.strings[snap.documents[childIndex]?.frameId ?? -1] ?? "";
      const origin = origins.get(frameId) ?? "an unknown origin";
      if (mainOrigin === undefined || origin !== mainOrigin) {
        layer.frames.set(frameNode, { origin });
        return;
      }
      const [bl = 0, bt = 0, pl = 0, pt = 0] = styleOf(nodeIndex)
        .slice(0, CURSOR)
        .map((v) => Number.parseFloat(v) || 0);
      const at = { x: offset.x + box[0] + bl + pl, y: offset.y + box[1] + bt + pt };
      const inner: Box = [
        Math.max(clip[0], at.x),
        Math.max(clip[1], at.y),
        Math.min(clip[2], offset.x + box[2] - bl),
        Math.min(clip[3], offset.y + box[3] - bt),
      ];
      const axInner = (await cdp.send("Accessibility.getFullAXTree", { frameId })) as { nodes: AxNode[] };
      layer.frames.set(
        frameNode,
        await layerOf(cdp, snap, childIndex, axInner.nodes, at, inner, tree, depth + 1),
      );
    }),
  );
  // A frame this snapshot has no document for lives in another process: another site, not read.
  return layer;
}

/** backend node id → what the pointer regions need of its accessibility node. */
function axOfElements(nodes: readonly AxNode[]): Map<number, AxOfElement> {
  const out = new Map<number, AxOfElement>();
  for (const n of nodes)
    if (n.backendDOMNodeId !== undefined)
      out.set(n.backendDOMNodeId, {
        nodeId: n.nodeId,
        control: !n.ignored && INTERACTIVE_ROLES.has(roleOf(n)),
        name: String(n.name?.value ?? ""),
      });
  return out;
}

/**
 * Elements listed per capture at most: a screen holds a few hundred controls a person could tell
 * apart; past that (a grid of thousands of tiny buttons) the list and the marks would only be noise,
 * and the first ones in document order are kept.
 */
export const MAX_ELEMENTS = 300;

/** The visible interactive elements, numbered in document order (what a11y and som observations carry). */
export async function collectElements(cdp: CdpSender, placement: ViewportPlacement): Promise<UiElement[]> {
  // The budget only shapes the text; every element up to the cap is returned, so click_element can
  // reach ones the text cut too.
  return serialize(await collectAxTree(cdp, placement), Number.MAX_SAFE_INTEGER).elements.slice(
    0,
    MAX_ELEMENTS,
  );
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
  const value = node.value?.value;
  if (typeof value === "string" && value !== "") {
    const short = value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value;
    states.push(`value="${short.replace(/\s+/g, " ")}"`);
  }
  return states;
}
