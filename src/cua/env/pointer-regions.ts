/**
 * Controls a page's script makes out of plain elements, which the accessibility tree calls generic or
 * leaves out, yet a person sees something to click. Each is listed as a "clickable" (named by its
 * text, else an icon's name, else its shape and colour, else the label beside it) when it is
 *
 * - where a `cursor: pointer` starts (the element has it, its parent does not): MiniWoB's click-link
 *   page is links made of spans;
 * - an element with a press listener (click, mousedown, pointerdown…: ./listeners.ts), with or
 *   without a pointer cursor: MiniWoB's SVG numbers, coloured boxes, a calendar's half hours;
 * - an SVG shape with any pointer listener, hover included (marked `hover` when it answers only to the
 *   pointer resting on it: MiniWoB's hover-shape and chase-circle);
 * - a link, button or focusable element inside an `aria-hidden` subtree that is laid out on screen
 *   (the tree prunes those, yet a person sees and clicks them: a spinner's arrows), marked
 *   `aria-hidden`.
 *
 * Never one that holds or sits inside a real control (the click is that control's), nor labels,
 * `<html>` or `<body>`. An element holding others of these is listed at its own label when it has
 * text of its own (a tree's folder), else not at all (a container). An element whose listener serves
 * a list's items (a sortable `<ul>`, a dropdown's `<ul>` of options) lists each item instead. The
 * confirmation gate reads such elements the same way when it judges an action (probe-script.ts).
 *
 * A pure function of one document's snapshot, its accessibility nodes and its listeners.
 */
import type { SnapshotView } from "./dom-snapshot.js";
import { iconName, isSvgShape, kinOf, nearbyLabel, type PlacedText, shapeName } from "./element-names.js";
import type { Listening } from "./listeners.js";

export const CLICKABLE_ROLE = "clickable";
/** The longest name a clickable element gets from its text. */
const MAX_NAME = 80;
/** Tags of a list's items: a container listening for them lists each. */
const ITEM_TAGS = new Set(["LI", "TR", "OPTION", "DT", "DD"]);

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
  /** The element listed (an item holding others: its own label). */
  backendId: number;
  /** Document order (the snapshot's pre-order node index). */
  order: number;
  role: string;
  name: string;
  /** `aria-hidden`, `hover`. */
  states: string[];
}

export interface PointerRegions {
  /**
   * Accessibility node id of the nearest element above a clickable that has one → the clickables it
   * holds, in document order (the element list places them among that node's children).
   */
  byHost: Map<string, Clickable[]>;
  /** backend node id → document order (the snapshot's node index). */
  order: Map<number, number>;
  /** Laid-out text outside every control, with its box: where a field's nearby label is read. */
  texts: PlacedText[];
}

export function pointerRegions(
  view: SnapshotView | undefined,
  axOf: ReadonlyMap<number, AxOfElement>,
  listening: Listening = new Map(),
): PointerRegions {
  const byHost = new Map<string, Clickable[]>();
  const order = new Map<number, number>();
  if (!view) return { byHost, order, texts: [] };
  const { count, ids } = view;
  for (const [n, id] of ids.entries()) order.set(id, n);
  const pointer = (n: number) => view.css(n, "cursor") === "pointer";
  const isControl = (n: number) => axOf.get(ids[n] ?? -1)?.control === true;
  const listens = (n: number) => listening.get(ids[n] ?? -1);
  // Parents precede children: one pass down for "inside a control" and "aria-hidden", one pass up
  // for "holds a control".
  const inside = new Uint8Array(count);
  const hidden = new Uint8Array(count);
  for (let n = 0; n < count; n++) {
    const p = view.parent(n);
    if (p !== undefined && (inside[p] || isControl(p))) inside[n] = 1;
    if (view.attr(n, "aria-hidden") === "true" || (p !== undefined && hidden[p])) hidden[n] = 1;
  }
  const holds = new Uint8Array(count);
  for (let n = count - 1; n >= 0; n--) {
    const p = view.parent(n);
    if (p !== undefined && (holds[n] || isControl(n))) holds[p] = 1;
  }
  const regionStart = (n: number): number => {
    let at = n;
    for (let p = view.parent(at); p !== undefined && pointer(p); p = view.parent(at)) at = p;
    return at;
  };
  // A repeated item inside an item of the same kind (a tree's folder `<li>` holding its files'
  // `<li>`s) inherits the cursor yet is a control of its own.
  const nestedItem = (n: number) => {
    const p = view.parent(n);
    return p !== undefined && pointer(p) && view.tag(n) === view.tag(regionStart(p));
  };
  const ariaHiddenControl = (n: number) => {
    const tag = view.tag(n);
    const role = view.attr(n, "role") ?? "";
    return (
      hidden[n] === 1 &&
      (tag === "A" ||
        tag === "BUTTON" ||
        /^(button|link)$/.test(role) ||
        view.attr(n, "tabindex") !== undefined)
    );
  };
  const candidate = new Uint8Array(count);
  for (let n = 0; n < count; n++) {
    if (!view.isElement(n) || !view.laidOut(n) || inside[n] || holds[n] || isControl(n)) continue;
    const tag = view.tag(n);
    // A page-wide listener or pointer says nothing about where to click; a label's click is its control's.
    if (tag === "HTML" || tag === "BODY" || tag === "LABEL") continue;
    const p = view.parent(n);
    const startsPointer = pointer(n) && (p === undefined || !pointer(p) || nestedItem(n));
    const l = listens(n);
    if (startsPointer || l === "press" || (l === "hover" && isSvgShape(tag)) || ariaHiddenControl(n))
      candidate[n] = 1;
  }
  // A container listening for its list's items (a sortable <ul>): the items are what a person clicks.
  for (let n = 0; n < count; n++) {
    if (!candidate[n]) continue;
    const items = itemsOf(view, n);
    if (items.length < 2 || items.some((i) => candidate[i] || holds[i] || isControl(i))) continue;
    candidate[n] = 0;
    for (const i of items) candidate[i] = 1;
  }
  const holdsCandidate = new Uint8Array(count);
  for (let n = count - 1; n >= 0; n--) {
    const p = view.parent(n);
    if (p !== undefined && (holdsCandidate[n] || candidate[n])) holdsCandidate[p] = 1;
  }
  const inCandidate = new Uint8Array(count);
  for (let n = 0; n < count; n++) {
    const p = view.parent(n);
    if (p !== undefined && (inCandidate[p] || candidate[p])) inCandidate[n] = 1;
  }
  // A <label> tied to a control (by `for`, or around it) names that one already; a free one may name its neighbour.
  const inTiedLabel = new Uint8Array(count);
  for (let n = 0; n < count; n++) {
    const p = view.parent(n);
    const tied = view.tag(n) === "LABEL" && (holds[n] === 1 || view.attr(n, "for") !== undefined);
    if (tied || (p !== undefined && inTiedLabel[p])) inTiedLabel[n] = 1;
  }
  const texts: PlacedText[] = [];
  for (let n = 0; n < count; n++) {
    const box = view.box(n);
    const text = view.text(n).trim();
    if (view.isText(n) && box && text && !inside[n] && !inCandidate[n] && !inTiedLabel[n])
      texts.push({ box, text, node: n });
  }
  const skip = (m: number) => candidate[m] === 1;
  for (let n = 0; n < count; n++) {
    if (!candidate[n]) continue;
    const id = ids[n];
    let host = view.parent(n);
    while (host !== undefined && !axOf.has(ids[host] ?? -1)) host = view.parent(host);
    const hostAx = host === undefined ? undefined : axOf.get(ids[host] ?? -1);
    if (!hostAx || id === undefined) continue;
    const container = holdsCandidate[n] === 1;
    const own = container ? "" : (axOf.get(id)?.name.trim() ?? "");
    const text = own || view.textUnder(n, skip);
    // A container of others with no text of its own is no control: its items are listed.
    if (container && !text) continue;
    // A glyph ("🗑", "×") says less than the icon's title or label, when it has one.
    const glyph = text !== "" && !/[\p{L}\p{N}]/u.test(text);
    const named = (glyph && iconName(view, n)) || text || iconName(view, n);
    const name =
      named.length > MAX_NAME
        ? `${named.slice(0, MAX_NAME)}…`
        : named || shapeName(view, n) || rowLabel(view, n);
    const states: string[] = [];
    if (hidden[n]) states.push("aria-hidden");
    if (listens(n) === "hover" && !pointer(n)) states.push("hover");
    const tag = view.tag(n);
    // A hidden link goes somewhere; a hidden <a> without href, or a <button>, is a button (a spinner's arrow).
    const role = !hidden[n]
      ? CLICKABLE_ROLE
      : tag === "A" && view.attr(n, "href") !== undefined
        ? "link"
        : tag === "A" || tag === "BUTTON"
          ? "button"
          : CLICKABLE_ROLE;
    const label = container ? labelOf(view, n, skip) : n;
    const list = byHost.get(hostAx.nodeId) ?? [];
    // An item holding items is listed at its own label, just before its subtree (which lists them).
    list.push({ backendId: ids[label] ?? id, order: container ? n - 0.5 : n, role, name, states });
    byHost.set(hostAx.nodeId, list);
  }
  return { byHost, order, texts };

  /** The text left of an unnamed clickable in its row (a calendar's hour beside its slots). */
  function rowLabel(v: SnapshotView, n: number): string {
    const box = v.box(n);
    return box ? nearbyLabel(box, texts, { side: "before", above: false, related: kinOf(v, n) }) : "";
  }
}

/** A list's items under `n` (its children, or its only child's: a <table>'s <tbody>), laid out. */
function itemsOf(view: SnapshotView, n: number): number[] {
  let kids = view.children(n).filter((c) => view.isElement(c) && view.laidOut(c));
  if (kids.length === 1 && !ITEM_TAGS.has(view.tag(kids[0] as number)))
    kids = view.children(kids[0] as number).filter((c) => view.isElement(c) && view.laidOut(c));
  const items = kids.filter((c) => ITEM_TAGS.has(view.tag(c)));
  return items.length === kids.length ? items : [];
}

/** The first laid-out element or text under `n` that is not skipped: a folder's own name. */
function labelOf(view: SnapshotView, n: number, skip: (m: number) => boolean): number {
  for (const c of view.children(n)) {
    if (!view.laidOut(c) || skip(c)) continue;
    if (view.isElement(c) && view.textUnder(c, skip)) return c;
    if (view.isText(c) && view.text(c).trim()) return n;
  }
  return n;
}
