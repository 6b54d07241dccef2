/**
 * Chromium's accessibility tree with screen boxes, in two CDP calls: `Accessibility.getFullAXTree`
 * (roles, computed names, states) and `DOMSnapshot.captureSnapshot` (layout boxes of every node, keyed
 * by the same backend node ids). Measured here: ~10–30 ms per capture on a small page, against
 * ~35 ms for Playwright's ariaSnapshot, which has no boxes.
 */
import type { Size, UiElement } from "../types.js";
import { type AxTreeNode, serialize } from "./serialize.js";

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
interface SnapshotDocument {
  /** Index into the snapshot's strings. */
  frameId: number;
  nodes: {
    backendNodeId?: number[];
    /** <iframe> nodes whose document is in the snapshot: node index → document index. */
    contentDocumentIndex?: { index: number[]; value: number[] };
  };
  layout: { nodeIndex: number[]; bounds: number[][]; styles?: number[][] };
  scrollOffsetX?: number;
  scrollOffsetY?: number;
}
interface Snapshot {
  documents: SnapshotDocument[];
  strings: string[];
}
interface FrameTree {
  frame: { id: string; securityOrigin?: string; url: string };
  childFrames?: FrameTree[];
}
type Box = [number, number, number, number];

/** The styles asked of DOMSnapshot, in this order: where an <iframe>'s document starts inside its box. */
const FRAME_STYLES = ["border-left-width", "border-top-width", "padding-left", "padding-top"];

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
    cdp.send("DOMSnapshot.captureSnapshot", { computedStyles: FRAME_STYLES }) as Promise<Snapshot>,
    (cdp.send("Page.getFrameTree") as Promise<{ frameTree: FrameTree }>).catch(() => undefined),
  ]);
  const { offset, viewport } = placement;
  const main = await layerOf(cdp, snap, 0, ax.nodes, offset, [0, 0, viewport.width, viewport.height], tree);
  const root = ax.nodes.find((n) => n.parentId === undefined) ?? ax.nodes[0];
  if (!root) throw new Error("accessibility tree: Chromium returned no nodes — is a page loaded?");
  return build(root, main, 0);
}

function build(node: AxNode, layer: Layer, depth: number): AxTreeNode {
  const doc = node.backendDOMNodeId === undefined ? undefined : layer.boxes.get(node.backendDOMNodeId);
  // Visible = rendered and on the screen part of its document; the clipped box is what a click reaches.
  const [cx0, cy0, cx1, cy1] = layer.clip;
  const x0 = Math.max(cx0, (doc?.[0] ?? 0) + layer.offset.x);
  const y0 = Math.max(cy0, (doc?.[1] ?? 0) + layer.offset.y);
  const x1 = Math.min(cx1, (doc?.[2] ?? 0) + layer.offset.x);
  const y1 = Math.min(cy1, (doc?.[3] ?? 0) + layer.offset.y);
  const onScreen = doc !== undefined && x1 > x0 && y1 > y0;
  const rawRole = String(node.role?.value ?? "");
  const inner = node.backendDOMNodeId === undefined ? undefined : layer.frames.get(node.backendDOMNodeId);
  const listed = !node.ignored && onScreen;
  const bbox: Box = listed ? [x0, y0, x1, y1] : [0, 0, 0, 0];
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
  if (inner && !("origin" in inner) && depth <= 500) {
    const innerRoot = [...inner.byId.values()].find((n) => n.parentId === undefined);
    if (innerRoot) children = [...children, build(innerRoot, inner, depth + 1)];
  }
  // Ignored nodes (layout wrappers) stay in the walk but are never listed: their children may be.
  const states = listed ? statesOf(node) : [];
  return {
    role: node.ignored ? "none" : (ROLE_ALIASES[rawRole] ?? rawRole),
    name: String(node.name?.value ?? ""),
    bbox,
    visible: true,
    children,
    ...(states.length > 0 ? { states } : {}),
  };
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
      const [bl = 0, bt = 0, pl = 0, pt = 0] = styleOf(nodeIndex);
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

/** node index → the FRAME_STYLES of its layout object, in px. */
function styles(doc: SnapshotDocument, strings: string[]): (nodeIndex: number) => number[] {
  const byNode = new Map<number, number[]>();
  doc.layout.nodeIndex.forEach((nodeIndex, i) => {
    if (byNode.has(nodeIndex)) return;
    byNode.set(
      nodeIndex,
      (doc.layout.styles?.[i] ?? []).map((s) => Number.parseFloat(strings[s] ?? "0") || 0),
    );
  });
  return (nodeIndex) => byNode.get(nodeIndex) ?? [];
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

/** backend node id → [x0, y0, x1, y1] in its document's viewport pixels. */
function layoutBoxes(doc: SnapshotDocument | undefined): Map<number, Box> {
  const out = new Map<number, Box>();
  if (!doc) return out;
  const sx = doc.scrollOffsetX ?? 0;
  const sy = doc.scrollOffsetY ?? 0;
  const ids = doc.nodes.backendNodeId ?? [];
  doc.layout.nodeIndex.forEach((nodeIndex, i) => {
    const id = ids[nodeIndex];
    const b = doc.layout.bounds[i];
    // A node can own several layout objects (text runs); the first is its own box.
    if (id === undefined || !b || out.has(id)) return;
    const [x = 0, y = 0, w = 0, h = 0] = b;
    out.set(id, [x - sx, y - sy, x - sx + w, y - sy + h]);
  });
  return out;
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
