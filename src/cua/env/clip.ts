/**
 * What part of the document an element can show: the boxes of the scrolling (or overflow-hidden)
 * containers around it, intersected. A row scrolled out of its panel keeps its layout box — inside
 * the viewport — yet nothing of it is on screen, and a click at its centre lands on whatever the
 * panel shows there instead. Positioning is followed as CSS clips: an absolutely positioned element
 * escapes the containers between it and its containing block (the nearest positioned ancestor), a
 * fixed one escapes all of them; `<html>` and `<body>` scroll the viewport, which the caller clips.
 * A pure function of one document's snapshot.
 */
import type { Box, SnapshotView } from "./dom-snapshot.js";

const CLIPS = /^(hidden|scroll|auto|clip)$/;

/** node index → the clip (document viewport pixels) that applies to it; undefined when none does. */
export function containerClips(view: SnapshotView): (n: number) => Box | undefined {
  const { count } = view;
  // Per node: the clip its in-flow children get, and the one its absolutely positioned descendants get.
  const forFlow: Array<Box | undefined> = new Array(count);
  const forAbsolute: Array<Box | undefined> = new Array(count);
  const own: Array<Box | undefined> = new Array(count);
  for (let n = 0; n < count; n++) {
    const p = view.parent(n);
    const position = view.isElement(n) ? view.css(n, "position") : "";
    const inherited =
      p === undefined || position === "fixed"
        ? undefined
        : position === "absolute"
          ? forAbsolute[p]
          : forFlow[p];
    own[n] = inherited;
    if (!view.isElement(n)) {
      forFlow[n] = forAbsolute[n] = inherited;
      continue;
    }
    const tag = view.tag(n);
    const box = view.box(n);
    const clips =
      box !== undefined &&
      tag !== "HTML" &&
      tag !== "BODY" &&
      (CLIPS.test(view.css(n, "overflow-x")) || CLIPS.test(view.css(n, "overflow-y")));
    forFlow[n] = clips ? intersect(inherited, box) : inherited;
    // A positioned element is its absolute descendants' containing block: its clip applies to them.
    const positioned = position !== "" && position !== "static";
    forAbsolute[n] = positioned ? forFlow[n] : p === undefined ? undefined : forAbsolute[p];
  }
  return (n) => own[n];
}

/** The overlap of two boxes (an empty box when they do not meet); `a` undefined is no clip yet. */
export function intersect(a: Box | undefined, b: Box): Box {
  if (!a) return b;
  return [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
}

/** True when a box has no area. */
export function isEmpty(b: Box): boolean {
  return b[2] <= b[0] || b[3] <= b[1];
}
