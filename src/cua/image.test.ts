import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { downscalePng, encodeRaw, pngSize, thumbnail } from "./image.js";

/** A 1400×800 frame: white, with a black 700×400 block in the top-left quarter. */
async function frame(): Promise<Buffer> {
  const size = { width: 1400, height: 800 };
  const rgb = Buffer.alloc(size.width * size.height * 3, 255);
  for (let y = 0; y < 400; y++) rgb.fill(0, y * size.width * 3, (y * size.width + 700) * 3);
  return encodeRaw(rgb, size, 3);
}

describe("image", () => {
  it("downscales to exactly the size the scaler asked for, and passes an equal size through", async () => {
    const png = await frame();
    expect(pngSize(png)).toEqual({ width: 1400, height: 800 });
    const small = await downscalePng(png, { width: 1372, height: 784 });
    expect(pngSize(small)).toEqual({ width: 1372, height: 784 });
    expect((await sharp(small).metadata()).format).toBe("png");
    expect(await downscalePng(png, { width: 1400, height: 800 })).toBe(png);
    await expect(downscalePng(png, { width: 0, height: 10 })).rejects.toThrow(/positive integer/);
  });

  it("makes a 64×64 greyscale thumbnail that keeps the layout", async () => {
    const t = await thumbnail(await frame(), 64);
    expect(t).toHaveLength(64 * 64);
    expect(t[0]).toBeLessThan(10); // top-left: black block
    expect(t[63]).toBeGreaterThan(245); // top-right: white
    expect(t[63 * 64]).toBeGreaterThan(245); // bottom-left: white
    expect(t[10 * 64 + 10]).toBeLessThan(10);
  });

  it("refuses bytes that are not a PNG", () => {
    expect(() => pngSize(Buffer.from("GIF89a...................."))).toThrow(/not a PNG/);
  });
});
