/**
 * Direct labels for a scatter plot that never overlap: each label is tried at positions around its
 * point, nearest first, and takes the first that stays inside the plot and clear of every label
 * placed before it and of every point. A label that had to move away from its point gets a leader
 * line back to it. Pure: pixels in, pixels out; the plot converts them to data units.
 */

/** A box in the plot's pixels, x to the right and y down from the top-left corner. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LabelledPoint {
  /** The point, in pixels. */
  px: number;
  py: number;
  text: string;
}

export interface PlacedLabel extends LabelledPoint {
  /** The label's box; its text is drawn left-aligned at (box.x, box.y + box.h / 2). */
  box: Box;
  /** Set when the label sits away from its point: draw a line from the point to here. */
  leader: { x: number; y: number } | null;
}

/** Room kept around a label and around a point's mark, in pixels. */
const GAP = 2;
/** A point's mark as a square of this half-width (a filled circle of size 70 has radius ~4.7). */
const MARK = 5;
/** How far from its point a label is tried, nearest first; past the first ring it gets a leader. */
const RINGS = [7, 14, 24, 38, 56, 80, 110, 150, 200, 260, 340];
/** Directions tried on each ring (unit vectors): right, left, up, down, then the diagonals. */
const DIRECTIONS: [number, number][] = [
  [1, 0],
  [-1, 0],
  [0, -1],
  [0, 1],
  [1, -1],
  [-1, -1],
  [1, 1],
  [-1, 1],
];

/**
 * An upper bound on a label's width in the report's sans-serif font: per character, by its shape.
 * Generous on purpose (DejaVu Sans, what Debian's Chromium draws system-ui with, is a wide face): a
 * label drawn narrower than its box only leaves more room.
 */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const c of text) {
    if (/[ijlI.,:;'!|]/.test(c)) em += 0.36;
    else if (/[ frt()[\]-]/.test(c)) em += 0.5;
    else if (/[mwMW@%]/.test(c)) em += 1.0;
    else if (/[A-Z]/.test(c)) em += 0.78;
    else em += 0.66;
  }
  return Math.ceil(em * fontSize) + 2;
}

/** Line height of a label's box. */
export const lineHeight = (fontSize: number) => Math.ceil(fontSize * 1.3);

function overlaps(a: Box, b: Box, gap = GAP): boolean {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/** The label's box when it sits `r` pixels from its point in direction (dx, dy). */
function boxAt(p: LabelledPoint, w: number, h: number, r: number, [dx, dy]: [number, number]): Box {
  const x = dx > 0 ? p.px + r : dx < 0 ? p.px - r - w : p.px - w / 2;
  const y = dy > 0 ? p.py + r : dy < 0 ? p.py - r - h : p.py - h / 2;
  return { x, y, w, h };
}

/** The point on the box's edge nearest to (px, py): where a leader line meets the label. */
function nearestOnBox(b: Box, px: number, py: number): { x: number; y: number } {
  return {
    x: Math.min(Math.max(px, b.x), b.x + b.w),
    y: Math.min(Math.max(py, b.y), b.y + b.h),
  };
}

/**
 * Places every label inside `area` (width × height pixels). Labels are placed from the most crowded
 * point outwards, so the hardest get the nearest free positions. When no position is free (more
 * labels than room), the last one tried is taken: the caller's test of the drawing would then fail,
 * which is right — a plot that cannot be labelled must be made bigger, not drawn over.
 */
export function placeLabels(
  points: readonly LabelledPoint[],
  area: { width: number; height: number },
  fontSize: number,
): PlacedLabel[] {
  const h = lineHeight(fontSize);
  const marks = points.map((p) => ({ x: p.px - MARK, y: p.py - MARK, w: 2 * MARK, h: 2 * MARK }));
  const crowding = points.map((p) => points.filter((q) => Math.hypot(q.px - p.px, q.py - p.py) < 60).length);
  const order = points.map((_, i) => i).sort((a, b) => (crowding[b] ?? 0) - (crowding[a] ?? 0) || a - b);
  const placed: (PlacedLabel | undefined)[] = new Array(points.length);
  const taken: Box[] = [];
  for (const i of order) {
    const p = points[i] as LabelledPoint;
    const w = textWidth(p.text, fontSize);
    let chosen: { box: Box; r: number } | undefined;
    let last: { box: Box; r: number } | undefined;
    search: for (const r of RINGS)
      for (const d of DIRECTIONS) {
        const box = boxAt(p, w, h, r, d);
        last = { box, r };
        const inside =
          box.x >= 0 && box.y >= 0 && box.x + box.w <= area.width && box.y + box.h <= area.height;
        if (inside && !taken.some((t) => overlaps(t, box)) && !marks.some((m) => overlaps(m, box, 0))) {
          chosen = { box, r };
          break search;
        }
      }
    const at = (chosen ?? last) as { box: Box; r: number };
    taken.push(at.box);
    placed[i] = {
      ...p,
      box: at.box,
      leader: at.r > (RINGS[0] as number) ? nearestOnBox(at.box, p.px, p.py) : null,
    };
  }
  return placed as PlacedLabel[];
}
