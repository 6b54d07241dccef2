import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodeRaw } from "../image.js";
import type { UiElement } from "../types.js";
import { drawMarks, drawMarksRaw, layoutMarks, MARK_COLOURS } from "./som.js";

const size = { width: 400, height: 300 };
const el = (index: number, x: number, y: number, width = 120, height = 40): UiElement => ({
  index,
  role: "button",
  name: `b${index}`,
  box: { x, y, width, height },
});
const hex = (c: string) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));

async function pixels(png: Buffer): Promise<(x: number, y: number) => number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return (x, y) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
}

describe("set-of-mark", () => {
  const elements = [el(1, 50, 60), el(12, 200, 0)];

  it("puts each tag above its box, or inside it at the top edge, always on the image", () => {
    const [a, b] = layoutMarks(elements, size);
    expect(a?.rect).toMatchObject({ x: 50, y: 44, height: 16 });
    expect(b?.rect).toMatchObject({ x: 200, y: 0 });
    expect(b!.rect.width).toBeGreaterThan(a!.rect.width); // two digits
    const [edge] = layoutMarks([el(3, 395, 290, 5, 10)], size);
    expect(edge!.rect.x + edge!.rect.width).toBeLessThanOrEqual(size.width);
    expect(edge!.rect.y + edge!.rect.height).toBeLessThanOrEqual(size.height);
  });

  it("draws the outline and a filled tag with the number written in white", async () => {
    const white = await encodeRaw(Buffer.alloc(size.width * size.height * 3, 255), size, 3);
    for (const png of [
      await drawMarks(white, size, elements),
      await drawMarksRaw(Buffer.alloc(size.width * size.height * 3, 255), size, elements),
    ]) {
      const px = await pixels(png);
      const labels = layoutMarks(elements, size);
      for (const [i, label] of labels.entries()) {
        const colour = hex(MARK_COLOURS[i]!);
        const { x, y, width, height } = label.rect;
        const inTag: number[][] = [];
        for (let yy = y; yy < y + height; yy++) for (let xx = x; xx < x + width; xx++) inTag.push(px(xx, yy));
        const near = (p: number[], q: number[]) => p.every((v, k) => Math.abs(v - q[k]!) < 40);
        // The tag is mostly its colour, with white glyph pixels: the number is drawn.
        expect(inTag.filter((p) => near(p, colour)).length).toBeGreaterThan(inTag.length / 3);
        expect(inTag.filter((p) => near(p, [255, 255, 255])).length).toBeGreaterThan(10);
        // The outline on the box's bottom edge.
        const box = elements[i]!.box;
        expect(near(px(box.x + box.width / 2, box.y + box.height - 2), colour)).toBe(true);
      }
      // Far from every element, the frame is untouched.
      expect(px(10, 290)).toEqual([255, 255, 255]);
    }
  });
});
