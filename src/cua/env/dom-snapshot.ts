/**
 * The parts of CDP's `DOMSnapshot.captureSnapshot` the element list reads, and small pure readers of
 * them: per-node computed styles, attributes, layout boxes, the tree's parents and children.
 */

export interface SnapshotDocument {
  /** Index into the snapshot's strings. */
  frameId: number;
  nodes: {
    backendNodeId?: number[];
    /** Parent node index (-1 for the document); parents come before their children. */
    parentIndex?: number[];
    nodeType?: number[];
    /** Indexes into the snapshot's strings (upper-case tag names for elements). */
    nodeName?: number[];
    /** Indexes into the snapshot's strings (a text node's text; -1 for none). */
    nodeValue?: number[];
    /** Per node: string indexes, name and value in turn. */
    attributes?: number[][];
    /** <iframe> nodes whose document is in the snapshot: node index → document index. */
    contentDocumentIndex?: { index: number[]; value: number[] };
  };
  layout: { nodeIndex: number[]; bounds: number[][]; styles?: number[][] };
  scrollOffsetX?: number;
  scrollOffsetY?: number;
}

export interface Snapshot {
  documents: SnapshotDocument[];
  strings: string[];
}

export type Box = [number, number, number, number];

/**
 * The styles asked of DOMSnapshot, in this order: where an <iframe>'s document starts inside its box
 * (borders and padding); the cursor (what marks a control made of a plain element); what clips an
 * element (a scrolling container's overflow, and the positioning that escapes it); and what an
 * element without text shows (a shape's fill, a box's colour, an icon's image).
 */
export const SNAPSHOT_STYLES = [
  "border-left-width",
  "border-top-width",
  "padding-left",
  "padding-top",
  "cursor",
  "overflow-x",
  "overflow-y",
  "position",
  "fill",
  "background-color",
  "background-image",
  "content",
] as const;
export type SnapshotStyle = (typeof SNAPSHOT_STYLES)[number];
export const CURSOR = SNAPSHOT_STYLES.indexOf("cursor");

/** node index → the SNAPSHOT_STYLES of its layout object as computed ("2px", "pointer"); [] without one. */
export function styles(doc: SnapshotDocument, strings: readonly string[]): (nodeIndex: number) => string[] {
  const byNode = new Map<number, string[]>();
  doc.layout.nodeIndex.forEach((nodeIndex, i) => {
    if (!byNode.has(nodeIndex))
      byNode.set(
        nodeIndex,
        (doc.layout.styles?.[i] ?? []).map((s) => strings[s] ?? ""),
      );
  });
  return (nodeIndex) => byNode.get(nodeIndex) ?? [];
}

/** backend node id → [x0, y0, x1, y1] in its document's viewport pixels. */
export function layoutBoxes(doc: SnapshotDocument | undefined): Map<number, Box> {
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

/**
 * One document of a snapshot as a tree a pure function can walk: node indexes (pre-order, parents
 * first), tags, text, attributes, computed styles and viewport boxes by index.
 */
export class SnapshotView {
  readonly count: number;
  readonly ids: readonly number[];
  private readonly kids: number[][];
  private readonly boxes = new Map<number, Box>();
  private readonly style: (n: number) => string[];
  private readonly attrs = new Map<number, Map<string, string>>();

  constructor(
    readonly doc: SnapshotDocument,
    readonly strings: readonly string[],
  ) {
    this.ids = doc.nodes.backendNodeId ?? [];
    this.count = this.ids.length;
    this.kids = Array.from({ length: this.count }, () => []);
    for (let n = 0; n < this.count; n++) {
      const p = this.parent(n);
      if (p !== undefined) this.kids[p]?.push(n);
    }
    const sx = doc.scrollOffsetX ?? 0;
    const sy = doc.scrollOffsetY ?? 0;
    doc.layout.nodeIndex.forEach((n, i) => {
      const b = doc.layout.bounds[i];
      if (!b || this.boxes.has(n)) return;
      const [x = 0, y = 0, w = 0, h = 0] = b;
      this.boxes.set(n, [x - sx, y - sy, x - sx + w, y - sy + h]);
    });
    this.style = styles(doc, strings);
  }

  parent(n: number): number | undefined {
    const p = this.doc.nodes.parentIndex?.[n];
    return p !== undefined && p >= 0 ? p : undefined;
  }

  children(n: number): readonly number[] {
    return this.kids[n] ?? [];
  }

  isElement(n: number): boolean {
    return this.doc.nodes.nodeType?.[n] === 1;
  }

  isText(n: number): boolean {
    return this.doc.nodes.nodeType?.[n] === 3;
  }

  /** Upper case for HTML elements ("DIV"), as written for SVG ones ("circle", "rect"). */
  tag(n: number): string {
    return this.strings[this.doc.nodes.nodeName?.[n] ?? -1] ?? "";
  }

  text(n: number): string {
    return this.strings[this.doc.nodes.nodeValue?.[n] ?? -1] ?? "";
  }

  /** Laid out: it has a layout object (display: none and its subtree do not). */
  laidOut(n: number): boolean {
    return this.boxes.has(n);
  }

  /** Its box in the document's viewport pixels (the layout's, before any clipping). */
  box(n: number): Box | undefined {
    return this.boxes.get(n);
  }

  css(n: number, name: SnapshotStyle): string {
    return this.style(n)[SNAPSHOT_STYLES.indexOf(name)] ?? "";
  }

  attr(n: number, name: string): string | undefined {
    let map = this.attrs.get(n);
    if (!map) {
      map = new Map();
      const raw = this.doc.nodes.attributes?.[n] ?? [];
      for (let i = 0; i + 1 < raw.length; i += 2)
        map.set(this.strings[raw[i] as number] ?? "", this.strings[raw[i + 1] as number] ?? "");
      this.attrs.set(n, map);
    }
    return map.get(name);
  }

  /** Laid-out text under `n`, in order, text nodes joined by spaces (at most `max` of them read). */
  textUnder(n: number, skip: (m: number) => boolean = () => false, max = 200): string {
    const parts: string[] = [];
    const stack = [n];
    let read = 0;
    while (stack.length > 0 && read++ < max) {
      const m = stack.pop() as number;
      if (m !== n && skip(m)) continue;
      if (this.isText(m) && this.laidOut(m)) parts.push(this.text(m));
      stack.push(...this.children(m).slice().reverse());
    }
    return parts.join(" ").replace(/\s+/g, " ").trim();
  }
}
