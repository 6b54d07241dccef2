import { describe, expect, it } from "vitest";
import { type Box, placeLabels, textWidth } from "./label-placement.js";

const meet = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe("placeLabels", () => {
  it("puts a lone label right beside its point, with no leader", () => {
    const [label] = placeLabels([{ px: 100, py: 100, text: "full" }], { width: 400, height: 200 }, 10);
    expect(label?.leader).toBeNull();
    expect(label?.box.x).toBeGreaterThan(100);
    expect(Math.abs((label?.box.y ?? 0) + (label?.box.h ?? 0) / 2 - 100)).toBeLessThan(1);
  });

  it("keeps every label inside the area and clear of the others and of the points, however crowded", () => {
    // "full" and "full-shell" one pixel apart: the report once drew them as "full-fuell".
    const names = ["full", "full-shell", "whole-file", "no-search", "no-tests", "line-edit", "shell-only"];
    const points = names.map((text, i) => ({ px: 300 + i, py: 20 + (i % 3), text }));
    const area = { width: 440, height: 260 };
    const placed = placeLabels(points, area, 10);
    for (const [i, a] of placed.entries()) {
      expect(a.box.x).toBeGreaterThanOrEqual(0);
      expect(a.box.y).toBeGreaterThanOrEqual(0);
      expect(a.box.x + a.box.w).toBeLessThanOrEqual(area.width);
      expect(a.box.y + a.box.h).toBeLessThanOrEqual(area.height);
      for (const b of placed.slice(i + 1)) expect(meet(a.box, b.box), `${a.text} / ${b.text}`).toBe(false);
      for (const p of points) {
        const mark = { x: p.px - 5, y: p.py - 5, w: 10, h: 10 };
        expect(meet(a.box, mark), `${a.text} over the point of ${p.text}`).toBe(false);
      }
    }
    // Those pushed away from their point are tied back to it.
    expect(placed.filter((p) => p.leader !== null).length).toBeGreaterThan(0);
  });

  it("moves a label at the right edge to the left of its point", () => {
    const [label] = placeLabels([{ px: 395, py: 100, text: "shell-only" }], { width: 400, height: 200 }, 10);
    expect((label?.box.x ?? 0) + (label?.box.w ?? 0)).toBeLessThanOrEqual(395);
  });

  it("measures wide letters wider than narrow ones, and never less than a generous average", () => {
    expect(textWidth("mmmm", 10)).toBeGreaterThan(textWidth("iiii", 10));
    expect(textWidth("full-shell", 10)).toBeGreaterThanOrEqual(50);
  });
});
