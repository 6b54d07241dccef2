/**
 * Names for elements the accessibility tree leaves unnamed, from what a person sees: an icon's
 * title, label, alt text, SVG <title> or image file ("delete.png" is "delete"); a shape or a box of
 * colour with no text ("magenta box", "red circle"); a field's label written beside it without `for`
 * (the text before it in the same row, or just above it). Pure functions of one document's snapshot.
 */
import type { Box, SnapshotView } from "./dom-snapshot.js";

/** The longest name a label or an icon's file gives. */
const MAX_NAME = 60;
/** Longer text is a sentence (the page's instructions), not a label. */
const MAX_LABEL_TEXT = 40;
/** How far left of a field its label may end, and how far above it, in CSS pixels. */
const ROW_GAP = 250;
const ABOVE_GAP = 30;

const SHAPES: Record<string, string> = {
  circle: "circle",
  ellipse: "ellipse",
  rect: "rectangle",
  polygon: "polygon",
  polyline: "line",
  line: "line",
  path: "shape",
  image: "image",
  use: "shape",
};

/** SVG elements a page draws and may listen on (text is named by its text). */
export function isSvgShape(tag: string): boolean {
  return tag in SHAPES || tag === "text";
}

/**
 * An icon's name: its aria-label, title or alt, an SVG <title> inside it, the file name of the
 * image it shows (CSS `content` or `background-image`, or its only <img>), or the control words of
 * its class names; "" when it has none.
 */
export function iconName(view: SnapshotView, n: number): string {
  for (const attr of ["aria-label", "title", "alt"]) {
    const v = clean(view.attr(n, attr) ?? "");
    if (v) return short(v);
  }
  const stack = [...view.children(n)];
  for (let read = 0; stack.length > 0 && read < 50; read++) {
    const m = stack.shift() as number;
    if (!view.isElement(m)) continue;
    if (view.tag(m) === "title")
      return short(
        clean(
          view
            .children(m)
            .map((t) => view.text(t))
            .join(" "),
        ),
      );
    for (const attr of ["aria-label", "title", "alt"]) {
      const v = clean(view.attr(m, attr) ?? "");
      if (v) return short(v);
    }
    if (view.tag(m) === "IMG") {
      const file = fileWords(view.attr(m, "src") ?? "");
      if (file) return file;
    }
    stack.push(...view.children(m));
  }
  const file = fileWords(urlIn(view.css(n, "content")) || urlIn(view.css(n, "background-image")));
  if (file) return file;
  // Last, what its class names say it is (jQuery UI's spinner arrows are empty <a>s showing a sprite:
  // "ui-spinner-up"; icon fonts: "fa-trash"), the element's own classes before its children's.
  for (const m of [n, ...view.children(n).filter((c) => view.isElement(c))]) {
    const words = classWords(view.attr(m, "class") ?? "");
    if (words) return words;
  }
  return "";
}

/**
 * Words that name a control, as icon sets and widget libraries spell them in class names; a class
 * made only of other words (layout, theme, state) says nothing.
 */
const CONTROL_WORDS = new Set(
  (
    "up down left right arrow next prev previous back forward first last close delete remove trash " +
    "add plus minus search edit pencil menu star heart reply retweet share like more expand collapse " +
    "play pause stop settings gear cog home save cancel refresh reload send archive copy download " +
    "upload sort filter check info help user calendar clock bell mail email print undo redo zoom " +
    "bookmark flag lock unlock attach camera phone cart"
  ).split(" "),
);

/** "ui-spinner-up" → "up", "fa fa-arrow-left" → "arrow left": the first class holding control words. */
export function classWords(classes: string): string {
  for (const cls of classes.split(/\s+/)) {
    const words = cls
      .toLowerCase()
      .split(/[-_]+/)
      .filter((w) => CONTROL_WORDS.has(w));
    if (words.length > 0) return words.join(" ");
  }
  return "";
}

/**
 * "magenta box", "red circle", "drawing of 5 circles": what a shape, a drawing or a box of colour with
 * no text shows; "" when nothing.
 */
export function shapeName(view: SnapshotView, n: number): string {
  const tag = view.tag(n);
  if (tag === "svg") return drawingName(view, n);
  if (tag in SHAPES) {
    const fill = colourName(view.css(n, "fill"));
    return [fill, SHAPES[tag]].filter(Boolean).join(" ");
  }
  const colour = colourName(view.css(n, "background-color"));
  return colour ? `${colour} box` : "";
}

/** An <svg> without text by what it draws: "drawing of 5 circles and 2 lines". */
function drawingName(view: SnapshotView, n: number): string {
  const counts = new Map<string, number>();
  const stack = [...view.children(n)];
  for (let read = 0; stack.length > 0 && read < 500; read++) {
    const m = stack.pop() as number;
    const shape = SHAPES[view.tag(m)];
    if (shape && view.laidOut(m)) counts.set(shape, (counts.get(shape) ?? 0) + 1);
    stack.push(...view.children(m));
  }
  const parts = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([shape, k]) => `${k} ${shape}${k === 1 ? "" : "s"}`);
  return parts.length > 0 ? `drawing of ${parts.join(" and ")}` : "drawing";
}

/** A piece of laid-out text and its box; `node` is its node index, to tell whose neighbour it is. */
export interface PlacedText {
  box: Box;
  text: string;
  node?: number;
}

/**
 * The visible text labelling a field from beside it: the text ending just before it in the same row
 * (`before`: a textbox's "Email:"), or starting just after it (`after`: a checkbox's "Remember me"),
 * or, for a field, the text just above it. Neighbouring words in the row are read as one label.
 * `related`: only text that belongs with the field (the caller's rule: the same few enclosing
 * elements), so a status panel across the page never names a checkbox.
 */
export function nearbyLabel(
  target: Box,
  all: readonly PlacedText[],
  options: { side: "before" | "after"; above: boolean; related?: (node: number) => boolean },
): string {
  const [x0, y0, x1, y1] = target;
  const related = options.related;
  const texts = all.filter(
    (t) => t.text.length <= MAX_LABEL_TEXT && (!related || (t.node !== undefined && related(t.node))),
  );
  const sameRow = (b: Box) => overlap(b[1], b[3], y0, y1) >= 0.5 * Math.min(b[3] - b[1], y1 - y0);
  const row = texts.filter((t) => sameRow(t.box));
  const words: { box: Box; text: string }[] = [];
  if (options.side === "before") {
    let edge = x0;
    for (;;) {
      const next = row
        .filter((t) => t.box[2] <= edge + 2 && edge - t.box[2] <= (words.length === 0 ? ROW_GAP : 12))
        .sort((a, b) => b.box[2] - a.box[2])[0];
      if (!next || words.includes(next)) break;
      words.unshift(next);
      edge = next.box[0];
    }
  } else {
    let edge = x1;
    for (;;) {
      const next = row
        .filter((t) => t.box[0] >= edge - 2 && t.box[0] - edge <= (words.length === 0 ? ROW_GAP : 12))
        .sort((a, b) => a.box[0] - b.box[0])[0];
      if (!next || words.includes(next)) break;
      words.push(next);
      edge = next.box[2];
    }
  }
  if (words.length === 0 && options.above) {
    const above = texts
      .filter(
        (t) =>
          t.box[3] <= y0 + 2 && y0 - t.box[3] <= ABOVE_GAP && overlap(t.box[0], t.box[2], x0 - 20, x1) > 0,
      )
      .sort((a, b) => b.box[3] - a.box[3])[0];
    if (above) words.push(above);
  }
  return short(clean(words.map((w) => w.text).join(" ")).replace(/[\s:*]+$/, ""));
}

/** How far up from a field its label's and its own enclosing elements may meet. */
const KIN_LEVELS = 3;

/**
 * Whether a text node belongs with element `n`: the two meet within KIN_LEVELS elements above `n`
 * (a <label> beside its input, a table row's cells), below <body>. A status panel elsewhere on the
 * page meets a field only at the page itself.
 */
export function kinOf(view: SnapshotView, n: number): (text: number) => boolean {
  const near = new Set<number>();
  for (let a = view.parent(n), up = 0; a !== undefined && up < KIN_LEVELS; a = view.parent(a), up++) {
    const tag = view.tag(a);
    if (tag === "BODY" || tag === "HTML") break;
    near.add(a);
  }
  return (text) => {
    for (let a = view.parent(text), up = 0; a !== undefined && up < KIN_LEVELS + 2; a = view.parent(a), up++)
      if (near.has(a)) return true;
    return false;
  };
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

function clean(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function short(s: string): string {
  return s.length > MAX_NAME ? `${s.slice(0, MAX_NAME)}…` : s;
}

function urlIn(css: string): string {
  return /url\(\s*["']?([^"')]+)["']?\s*\)/.exec(css)?.[1] ?? "";
}

/** "…/icons/left-arrow.png?v=2" → "left arrow"; "" for data: URLs and names that are not words. */
export function fileWords(url: string): string {
  if (!url || url.startsWith("data:")) return "";
  const file = url.split(/[?#]/)[0]?.split("/").pop() ?? "";
  const stem = decodeURIComponent(file).replace(/\.[a-z0-9]+$/i, "");
  const words = clean(stem.replace(/[-_.]+/g, " ").replace(/\b(icon|ic|img|btn|svg)\b/gi, ""));
  return /[a-z]{2,}/i.test(words) ? short(words) : "";
}

/**
 * A CSS colour as a person names it: the CSS colour name when it is exactly one (the names pages
 * use most), else its hex; "" for transparent. Where two names share a value the common one is used
 * (cyan for aqua, magenta for fuchsia, grey for gray).
 */
export function colourName(css: string): string {
  const m = /rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)(?:[,\s/]+([\d.]+%?))?\s*\)/.exec(css);
  if (!m) return "";
  const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? Number.parseFloat(m[4]) / 100 : Number(m[4]);
  if (alpha < 0.1) return "";
  const hex = [m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("");
  return NAMED.get(hex) ?? `#${hex}`;
}

const NAMED = new Map(
  (
    "black:000000 silver:c0c0c0 grey:808080 white:ffffff maroon:800000 red:ff0000 purple:800080 " +
    "magenta:ff00ff green:008000 lime:00ff00 olive:808000 yellow:ffff00 navy:000080 blue:0000ff " +
    "teal:008080 cyan:00ffff orange:ffa500 pink:ffc0cb brown:a52a2a gold:ffd700 violet:ee82ee " +
    "indigo:4b0082 darkblue:00008b darkgreen:006400 darkred:8b0000 lightblue:add8e6 lightgreen:90ee90 " +
    "lightgrey:d3d3d3 darkgrey:a9a9a9 orangered:ff4500 salmon:fa8072 khaki:f0e68c beige:f5f5dc " +
    "tan:d2b48c coral:ff7f50 crimson:dc143c turquoise:40e0d0 skyblue:87ceeb steelblue:4682b4 " +
    "chocolate:d2691e plum:dda0dd orchid:da70d6 lavender:e6e6fa hotpink:ff69b4 deeppink:ff1493 " +
    "tomato:ff6347 seagreen:2e8b57 forestgreen:228b22 limegreen:32cd32 royalblue:4169e1 " +
    "slategrey:708090 darkorange:ff8c00 yellowgreen:9acd32 mediumpurple:9370db darkviolet:9400d3 " +
    "midnightblue:191970 sienna:a0522d peru:cd853f wheat:f5deb3 ivory:fffff0 lightyellow:ffffe0 " +
    "lightpink:ffb6c1 firebrick:b22222 darkcyan:008b8b darkmagenta:8b008b greenyellow:adff2f " +
    "springgreen:00ff7f chartreuse:7fff00 dodgerblue:1e90ff deepskyblue:00bfff cornflowerblue:6495ed " +
    "cadetblue:5f9ea0 aquamarine:7fffd4 lightcyan:e0ffff goldenrod:daa520 olivedrab:6b8e23 " +
    "indianred:cd5c5c lightcoral:f08080 palegreen:98fb98 thistle:d8bfd8 slateblue:6a5acd " +
    "blueviolet:8a2be2 powderblue:b0e0e6 dimgrey:696969 gainsboro:dcdcdc whitesmoke:f5f5f5"
  )
    .split(" ")
    .map((pair) => {
      const [name = "", hex = ""] = pair.split(":");
      return [hex, name] as const;
    }),
);
