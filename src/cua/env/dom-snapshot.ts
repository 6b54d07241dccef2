/**
 * The parts of CDP's `DOMSnapshot.captureSnapshot` the element list reads, and small pure readers of
 * them: per-node computed styles and layout boxes.
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
 * (borders and padding), then the cursor (what marks a control made of a plain element).
 */
export const SNAPSHOT_STYLES = [
  "border-left-width",
  "border-top-width",
  "padding-left",
  "padding-top",
  "cursor",
] as const;
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
