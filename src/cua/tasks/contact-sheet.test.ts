import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { contactSheet } from "./contact-sheet.js";

const frame = (shade: number) =>
  sharp({ create: { width: 640, height: 400, channels: 3, background: { r: shade, g: shade, b: shade } } })
    .png()
    .toBuffer();

describe("contactSheet", () => {
  it("tiles frames in rows of four with a caption under each", async () => {
    const frames = await Promise.all(
      [10, 60, 110, 160, 210].map(async (s, i) => ({
        step: i + 1,
        png: await frame(s),
        caption: `click step ${i}`,
      })),
    );
    const png = await contactSheet(frames, { tileWidth: 200, title: "notify-weekly · a11y" });
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe("png");
    // 4 columns of 200 px plus 5 gaps of 8; 2 rows of (125 + 30 caption + 8) plus the title bar and top gap.
    expect(meta.width).toBe(4 * 200 + 5 * 8);
    expect(meta.height).toBe(36 + 8 + 2 * (125 + 30 + 8));
    // The fifth tile is on the second row, first column: its pixels carry the fifth frame's shade.
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(at(8 + 100, 36 + 8 + 163 + 60)).toBeGreaterThan(200);
    expect(at(8 + 100, 36 + 8 + 60)).toBeLessThan(20);
  });

  it("refuses an episode without frames", async () => {
    await expect(contactSheet([])).rejects.toThrow(/no frames/);
  });
});
