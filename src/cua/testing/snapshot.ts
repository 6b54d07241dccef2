/**
 * DOMSnapshot documents written as a tree, for unit tests of the pure readers (element names, clips,
 * pointer regions): each node's tag, attributes, computed styles and box, in the snapshot's own
 * shape (pre-order node indexes, a string table, layout rows for laid-out nodes).
 */
import { SNAPSHOT_STYLES, type Snapshot, type SnapshotStyle, SnapshotView } from "../env/dom-snapshot.js";

export interface NodeSpec {
  /** An element's tag ("DIV", "circle"), or "#text" with `text`. */
  tag: string;
  text?: string;
  attrs?: Record<string, string>;
  style?: Partial<Record<SnapshotStyle, string>>;
  /** [x, y, width, height]; absent: not laid out (display: none). */
  box?: [number, number, number, number] | undefined;
  children?: NodeSpec[];
}

export const el = (
  tag: string,
  box: NodeSpec["box"],
  children: NodeSpec[] = [],
  extra: Omit<NodeSpec, "tag" | "box" | "children"> = {},
): NodeSpec => ({ tag, box, children, ...extra });

export const text = (t: string, box?: NodeSpec["box"]): NodeSpec => ({ tag: "#text", text: t, box });

/** The snapshot of a document whose <html> holds `body`'s children; backend ids are index + 100. */
export function snapshotOf(root: NodeSpec): Snapshot {
  const strings: string[] = [];
  const str = (s: string) => {
    const i = strings.indexOf(s);
    if (i >= 0) return i;
    strings.push(s);
    return strings.length - 1;
  };
  const nodes = {
    backendNodeId: [] as number[],
    parentIndex: [] as number[],
    nodeType: [] as number[],
    nodeName: [] as number[],
    nodeValue: [] as number[],
    attributes: [] as number[][],
  };
  const layout = { nodeIndex: [] as number[], bounds: [] as number[][], styles: [] as number[][] };
  const add = (spec: NodeSpec, parent: number) => {
    const n = nodes.backendNodeId.length;
    const isText = spec.tag === "#text";
    nodes.backendNodeId.push(n + 100);
    nodes.parentIndex.push(parent);
    nodes.nodeType.push(isText ? 3 : 1);
    nodes.nodeName.push(str(spec.tag));
    nodes.nodeValue.push(isText ? str(spec.text ?? "") : -1);
    nodes.attributes.push(Object.entries(spec.attrs ?? {}).flatMap(([k, v]) => [str(k), str(v)]));
    if (spec.box) {
      layout.nodeIndex.push(n);
      layout.bounds.push(spec.box);
      layout.styles.push(SNAPSHOT_STYLES.map((name) => str(spec.style?.[name] ?? defaults[name])));
    }
    for (const c of spec.children ?? []) add(c, n);
  };
  add(root, -1);
  return { documents: [{ frameId: str("main"), nodes, layout }], strings };
}

const defaults: Record<SnapshotStyle, string> = {
  "border-left-width": "0px",
  "border-top-width": "0px",
  "padding-left": "0px",
  "padding-top": "0px",
  cursor: "auto",
  "overflow-x": "visible",
  "overflow-y": "visible",
  position: "static",
  fill: "rgb(0, 0, 0)",
  "background-color": "rgba(0, 0, 0, 0)",
  "background-image": "none",
  content: "normal",
};

export function viewOf(root: NodeSpec): SnapshotView {
  const snap = snapshotOf(root);
  return new SnapshotView(snap.documents[0] as Snapshot["documents"][number], snap.strings);
}

/** The node index of the first node with attribute id=`id` (test lookups). */
export function byId(view: SnapshotView, id: string): number {
  for (let n = 0; n < view.count; n++) if (view.attr(n, "id") === id) return n;
  throw new Error(`no node with id ${id}`);
}
