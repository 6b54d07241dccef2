/**
 * The documents of one capture as layers: each document's accessibility nodes, its snapshot as a
 * tree, where its viewport sits on the screen, the part of the screen it can show, the clips of its
 * scrolling containers, the controls its scripts make, and the same-origin frames inside it (up to
 * MAX_FRAME_DEPTH deep; a cross-origin frame is only its origin: it is not read).
 */
import type { CdpSender } from "./a11y.js";
import { containerClips, intersect, isEmpty } from "./clip.js";
import { type Box, type Snapshot, SnapshotView } from "./dom-snapshot.js";
import type { Listening } from "./listeners.js";
import { type AxOfElement, type PointerRegions, pointerRegions } from "./pointer-regions.js";
import { INTERACTIVE_ROLES } from "./serialize.js";

export interface AxValue {
  value?: unknown;
}
export interface AxNode {
  nodeId: string;
  ignored: boolean;
  role?: AxValue;
  name?: AxValue;
  value?: AxValue;
  properties?: { name: string; value: AxValue }[];
  childIds?: string[];
  parentId?: string;
  backendDOMNodeId?: number;
}
export interface FrameTree {
  frame: { id: string; securityOrigin?: string; url: string };
  childFrames?: FrameTree[];
}

export interface Layer {
  byId: Map<string, AxNode>;
  /** The document's snapshot as a tree; undefined when the snapshot has no such document. */
  view: SnapshotView | undefined;
  /** backend node id → node index in `view`. */
  index: Map<number, number>;
  offset: { x: number; y: number };
  clip: Box;
  /** node index → the clip of the scrolling containers around it (document pixels). */
  containerClip: (n: number) => Box | undefined;
  /** <iframe> backend node id → the layer of its document, or "cross-origin" (not read). */
  frames: Map<number, Layer | CrossOrigin>;
  /** Plain elements a script makes controls, by the accessibility node they sit under. */
  regions: PointerRegions;
}
export interface CrossOrigin {
  origin: string;
}

/**
 * Chromium's role names for controls the listed roles already cover, or name better; mapped so the
 * model sees one vocabulary (a search field is a textbox to click and type into; a date field is a
 * date, whatever its type says).
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
  Date: "date",
  DateTime: "date",
  InputTime: "time",
  ColorWell: "color",
};

export function roleOf(node: AxNode): string {
  const raw = String(node.role?.value ?? "");
  return ROLE_ALIASES[raw] ?? raw;
}

/** Where an element is on the screen: what of it shows, or its whole box when nothing does. */
export type Placement = { box: Box; offscreen: boolean };

/**
 * An element's place on the screen: its box moved by the document's offset and clipped to what the
 * document shows and to its scrolling containers. When nothing of it is left it is `offscreen`, with
 * its whole box (where it would be). undefined when it is not laid out or has no size.
 */
export function place(layer: Layer, backendId: number | undefined): Placement | undefined {
  const n = backendId === undefined ? undefined : layer.index.get(backendId);
  const doc = n === undefined ? undefined : layer.view?.box(n);
  if (n === undefined || !doc || isEmpty(doc)) return undefined;
  const { x, y } = layer.offset;
  const moved = (b: Box): Box => [b[0] + x, b[1] + y, b[2] + x, b[3] + y];
  const whole = moved(doc);
  const container = layer.containerClip(n);
  const shown = intersect(container ? intersect(layer.clip, moved(container)) : layer.clip, whole);
  return isEmpty(shown) ? { box: whole, offscreen: true } : { box: shown, offscreen: false };
}

/** Frames nested deeper than this are not read (a page that nests frames without end). */
const MAX_FRAME_DEPTH = 4;

/** Document `index`'s layer, with the layers of the frames inside it (same-origin ones read). */
export async function layerOf(
  cdp: CdpSender,
  snap: Snapshot,
  index: number,
  nodes: AxNode[],
  offset: { x: number; y: number },
  clip: Box,
  tree: { frameTree: FrameTree } | undefined,
  listening: Listening,
  depth = 0,
): Promise<Layer> {
  const doc = snap.documents[index];
  const view = doc ? new SnapshotView(doc, snap.strings) : undefined;
  const layer: Layer = {
    byId: new Map(nodes.map((n) => [n.nodeId, n])),
    view,
    index: new Map(view?.ids.map((id, n) => [id, n]) ?? []),
    offset,
    clip,
    containerClip: view ? containerClips(view) : () => undefined,
    frames: new Map(),
    regions: pointerRegions(view, axOfElements(nodes), listening),
  };
  if (!doc || !view || depth >= MAX_FRAME_DEPTH) return layer;
  const origins = new Map<string, string>();
  const walk = (t: FrameTree) => {
    origins.set(t.frame.id, t.frame.securityOrigin ?? new URL(t.frame.url).origin);
    for (const c of t.childFrames ?? []) walk(c);
  };
  if (tree) walk(tree.frameTree);
  const mainOrigin = tree ? origins.get(tree.frameTree.frame.id) : undefined;
  const content = doc.nodes.contentDocumentIndex ?? { index: [], value: [] };
  await Promise.all(
    content.index.map(async (nodeIndex, i) => {
      const frameNode = view.ids[nodeIndex];
      const childIndex = content.value[i];
      const box = view.box(nodeIndex);
      if (frameNode === undefined || childIndex === undefined || !box) return;
      const frameId = snap.strings[snap.documents[childIndex]?.frameId ?? -1] ?? "";
      const origin = origins.get(frameId) ?? "an unknown origin";
      if (mainOrigin === undefined || origin !== mainOrigin) {
        layer.frames.set(frameNode, { origin });
        return;
      }
      const px = (name: "border-left-width" | "border-top-width" | "padding-left" | "padding-top") =>
        Number.parseFloat(view.css(nodeIndex, name)) || 0;
      const [bl, bt] = [px("border-left-width"), px("border-top-width")];
      const at = {
        x: offset.x + box[0] + bl + px("padding-left"),
        y: offset.y + box[1] + bt + px("padding-top"),
      };
      // The frame shows its document inside its own box, and only what its containers let through.
      const frameClip = layer.containerClip(nodeIndex);
      const outer = frameClip
        ? intersect(clip, [
            frameClip[0] + offset.x,
            frameClip[1] + offset.y,
            frameClip[2] + offset.x,
            frameClip[3] + offset.y,
          ])
        : clip;
      const inner: Box = [
        Math.max(outer[0], at.x),
        Math.max(outer[1], at.y),
        Math.min(outer[2], offset.x + box[2] - bl),
        Math.min(outer[3], offset.y + box[3] - bt),
      ];
      const axInner = (await cdp.send("Accessibility.getFullAXTree", { frameId })) as { nodes: AxNode[] };
      layer.frames.set(
        frameNode,
        await layerOf(cdp, snap, childIndex, axInner.nodes, at, inner, tree, listening, depth + 1),
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
