/**
 * Controls a page's script makes out of plain elements (a `<span>` or `<div>` with a click handler,
 * often delegated to the document, shown by `cursor: pointer`). The accessibility tree calls them
 * generic or leaves them out, yet a person sees something to click: MiniWoB's click-link page is made
 * of such spans, and without them its element list was empty. Each is listed as a "clickable" where
 * the pointer cursor starts (the element has it, its parent does not), named by its text, unless it
 * holds a real control or sits inside one (then the cursor is that control's). An item inside an item
 * of the same kind (a tree's file `<li>` in its folder's `<li>`) inherits the cursor yet is listed on
 * its own, and the folder at its name. Only laid-out text names anything. The confirmation gate
 * reads such elements the same way when it judges an action (probe-script.ts, pointerStart).
 *
 * A pure function of one document's snapshot and the accessibility nodes of its elements.
 */
import { CURSOR, type SnapshotDocument, styles } from "./dom-snapshot.js";

export const CLICKABLE_ROLE = "clickable";
/** The longest name a clickable element gets from its text. */
const MAX_NAME = 80;
/** Text nodes read for one name at most (a pointer region around a whole article). */
const MAX_TEXT_NODES = 200;

/** What the element list knows of an element's accessibility node. */
export interface AxOfElement {
  /** The accessibility node's id. */
  nodeId: string;
  /** Listed as a control in its own right (a button, link, textbox…). */
  control: boolean;
  /** Its computed name ("" when the tree gives none). */
  name: string;
}

export interface Clickable {
  backendId: number;
  /** Document order (the snapshot's pre-order node index). */
  order: number;
  name: string;
}

export interface PointerRegions {
  /**
   * Accessibility node id of the nearest element above a clickable that has one → the clickables it
   * holds, in document order (the element list places them among that node's children).
   */
  byHost: Map<string, Clickable[]>;
  /** backend node id → document order, to merge clickables with the host's other children. */
  order: Map<number, number>;
}

export function pointerRegions(
  doc: SnapshotDocument | undefined,
  strings: readonly string[],
  axOf: ReadonlyMap<number, AxOfElement>,
): PointerRegions {
  const byHost = new Map<string, Clickable[]>();
  const order = new Map<number, number>();
  if (!doc) return { byHost, order };
  const {
    backendNodeId: ids = [],
    parentIndex = [],
    nodeType = [],
    nodeName = [],
    nodeValue = [],
  } = doc.nodes;
  const count = ids.length;
  for (const [n, id] of ids.entries()) order.set(id, n);
  const styleOf = styles(doc, strings);
  const pointer = (n: number) => styleOf(n)[CURSOR] === "pointer";
  const isControl = (n: number) => axOf.get(ids[n] ?? -1)?.control === true;
  const parent = (n: number) => {
    const p = parentIndex[n];
    return p !== undefined && p >= 0 ? p : undefined;
  };
  // Parents precede children: one pass down for "inside a control", one pass up for "holds one".
  const inside = new Uint8Array(count);
  for (let n = 0; n < count; n++) {
    const p = parent(n);
    if (p !== undefined && (inside[p] || isControl(p))) inside[n] = 1;
  }
  const holds = new Uint8Array(count);
  for (let n = count - 1; n >= 0; n--) {
    const p = parent(n);
    if (p !== undefined && (holds[n] || isControl(n))) holds[p] = 1;
  }
  const children: number[][] = Array.from({ length: count }, () => []);
  for (let n = 0; n < count; n++) {
    const p = parent(n);
    if (p !== undefined) children[p]?.push(n);
  }
  const laidOut = new Set(doc.layout.nodeIndex);
  const tagOf = (n: number) => strings[nodeName[n] ?? -1] ?? "";
  // Where a pointer region starts: the element has the cursor and its parent does not.
  const regionStart = (n: number): number => {
    let at = n;
    for (let p = parent(at); p !== undefined && pointer(p); p = parent(at)) at = p;
    return at;
  };
  // A repeated item inside an item of the same kind (a tree's folder `<li>` holding its files'
  // `<li>`s) inherits the cursor yet is a control of its own: one region would name the open
  // folder "Ashlea Nieves Tula" and put its centre on a child.
  const nestedItem = (n: number) => {
    const p = parent(n);
    return p !== undefined && pointer(p) && tagOf(n) === tagOf(regionStart(p));
  };
  const textUnder = (start: number, skip: (n: number) => boolean = () => false): string => {
    const parts: string[] = [];
    const stack = [start];
    let read = 0;
    while (stack.length > 0 && read++ < MAX_TEXT_NODES) {
      const n = stack.pop()!;
      if (n !== start && skip(n)) continue;
      // Only text that is laid out: a collapsed tree folder's hidden children are not its name.
      if (nodeType[n] === 3 && laidOut.has(n)) parts.push(strings[nodeValue[n] ?? -1] ?? "");
      stack.push(...(children[n] ?? []).slice().reverse());
    }
    // Spaces between text nodes: "Jess" and "Marcella" in two elements are two words, as a person reads them.
    return parts.join(" ").replace(/\s+/g, " ").trim();
  };
  // The first laid-out element or text under `n` that is not a nested item: the folder's name.
  const labelOf = (n: number, skip: (n: number) => boolean): number => {
    for (const c of children[n] ?? []) {
      if (!laidOut.has(c) || skip(c)) continue;
      if (nodeType[c] === 1 && textUnder(c, skip)) return c;
      if (nodeType[c] === 3 && (strings[nodeValue[c] ?? -1] ?? "").trim()) return n;
    }
    return n;
  };
  // The items that hold nested items, each found from an item it holds.
  const holdsItems = new Set<number>();
  for (const c of laidOut) {
    if (nodeType[c] !== 1 || !pointer(c) || !nestedItem(c)) continue;
    let a = parent(c);
    while (a !== undefined && !(pointer(a) && tagOf(a) === tagOf(c))) a = parent(a);
    if (a !== undefined) holdsItems.add(a);
  }
  for (const n of laidOut) {
    if (nodeType[n] !== 1 || !pointer(n) || inside[n] || holds[n] || isControl(n)) continue;
    const tag = tagOf(n);
    // A page-wide pointer says nothing about where to click; a label's click is its control's.
    if (tag === "HTML" || tag === "BODY" || tag === "LABEL") continue;
    const p = parent(n);
    if (p !== undefined && pointer(p) && !nestedItem(n)) continue;
    let host = p;
    while (host !== undefined && !axOf.has(ids[host] ?? -1)) host = parent(host);
    const hostAx = host === undefined ? undefined : axOf.get(ids[host] ?? -1);
    const id = ids[n];
    if (!hostAx || id === undefined) continue;
    const items = holdsItems.has(n);
    const own = items ? "" : (axOf.get(id)?.name.trim() ?? "");
    const text = own || textUnder(n, nestedItem);
    const name = text.length > MAX_NAME ? `${text.slice(0, MAX_NAME)}…` : text;
    // An item holding items is listed at its own label (the folder's name), not its whole box.
    const label = items ? labelOf(n, nestedItem) : n;
    const list = byHost.get(hostAx.nodeId) ?? [];
    // Its place in the list is just before the item's own subtree (which lists the nested items).
    list.push({ backendId: ids[label] ?? id, order: items ? n - 0.5 : n, name });
    byHost.set(hostAx.nodeId, list);
  }
  return { byHost, order };
}
