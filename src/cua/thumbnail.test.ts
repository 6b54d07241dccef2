import { describe, expect, it } from "vitest";
import { DELTA_TOLERANCE, NO_CHANGE_BELOW, perceptualDelta } from "./stall.js";
import { fillRect, syntheticScreen } from "./testing/frames.js";
import { greyThumbnail, type Pixels, SAMPLE_STEP } from "./thumbnail.js";

const W = 1400;
const H = 800;

/** The frame moved by (dx, dy) pixels, edges repeated: a scroll or a one-pixel jitter. */
function shifted(dx: number, dy: number): Pixels {
  const src = syntheticScreen(W, H);
  const out = syntheticScreen(W, H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const sx = Math.min(W - 1, Math.max(0, x - dx));
      const sy = Math.min(H - 1, Math.max(0, y - dy));
      for (let c = 0; c < 4; c++) out.data[(y * W + x) * 4 + c] = src.data[(sy * W + sx) * 4 + c] as number;
    }
  return out;
}

describe("the sampled thumbnail keeps the detector's verdicts", () => {
  const base = syntheticScreen(W, H);
  const changes: [string, Pixels, boolean][] = [];
  const blink = syntheticScreen(W, H);
  fillRect(blink, 700, 400, 2, 16, 0);
  changes.push(["a cursor blink", blink, false]);
  const clock = syntheticScreen(W, H);
  fillRect(clock, 1300, 10, 40, 14, 30);
  changes.push(["a clock's digits", clock, false]);
  changes.push(["a one-pixel sideways jitter", shifted(1, 0), false]);
  const menu = syntheticScreen(W, H);
  fillRect(menu, 600, 300, 240, 160, 60);
  changes.push(["a dropdown", menu, true]);
  const toast = syntheticScreen(W, H);
  fillRect(toast, 1100, 720, 260, 48, 40);
  changes.push(["a toast", toast, true]);
  changes.push(["a scroll by one line", shifted(0, 28), true]);

  it.each(changes)("%s: the same verdict as reading every pixel", (_name, frame, isChange) => {
    const full = perceptualDelta(greyThumbnail(base, 64, 1), greyThumbnail(frame, 64, 1));
    const sampled = perceptualDelta(greyThumbnail(base), greyThumbnail(frame));
    expect(full >= NO_CHANGE_BELOW).toBe(isChange);
    expect(sampled >= NO_CHANGE_BELOW).toBe(isChange);
  });

  it("stays within the tolerance of the every-pixel average on a flat screen with noise", () => {
    const noisy = syntheticScreen(W, H);
    fillRect(noisy, 0, 0, W, H, 128);
    let seed = 3;
    for (let i = 0; i < noisy.data.length; i++) {
      if (i % 4 === 3) continue;
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      noisy.data[i] = 128 + ((seed >> 8) % 17) - 8;
    }
    const full = greyThumbnail(noisy, 64, 1);
    const sampled = greyThumbnail(noisy);
    let worst = 0;
    for (let i = 0; i < full.length; i++)
      worst = Math.max(worst, Math.abs((full[i] as number) - (sampled[i] as number)));
    expect(worst).toBeLessThan(DELTA_TOLERANCE / 4);
  });
});

describe("greyThumbnail on every layout", () => {
  it("reads RGB, RGBA at an unaligned offset, and grey the same way", () => {
    const rgba = new Uint8Array(1 + 30 * 20 * 4).subarray(1); // not 4-byte aligned: the byte path
    const rgb = new Uint8Array(30 * 20 * 3);
    const grey = new Uint8Array(30 * 20);
    for (let p = 0; p < 30 * 20; p++) {
      const v = p % 30 < 15 ? 40 : 220; // left half dark
      rgba.set([v, v, v, 255], p * 4);
      rgb.set([v, v, v], p * 3);
      grey[p] = v;
    }
    const a = greyThumbnail({ data: rgba, width: 30, height: 20, channels: 4 }, 2, SAMPLE_STEP);
    expect(a).toEqual(new Uint8Array([40, 220, 40, 220]));
    expect(greyThumbnail({ data: rgb, width: 30, height: 20, channels: 3 }, 2)).toEqual(a);
    expect(greyThumbnail({ data: grey, width: 30, height: 20, channels: 1 }, 2)).toEqual(a);
  });

  it("weights colour by luma, leaves cells of a tiny image empty, and refuses short buffers", () => {
    const red = new Uint8Array(4 * 4 * 4);
    for (let p = 0; p < 16; p++) red.set([255, 0, 0, 255], p * 4);
    expect(greyThumbnail({ data: red, width: 4, height: 4, channels: 4 }, 1)).toEqual(new Uint8Array([76]));
    const tiny = greyThumbnail({ data: new Uint8Array(4).fill(90), width: 2, height: 2, channels: 1 }, 4);
    expect([...tiny].filter((v) => v === 90)).toHaveLength(4); // one source pixel per non-empty cell
    expect(() => greyThumbnail({ data: new Uint8Array(3), width: 2, height: 2, channels: 1 })).toThrow(
      /too few/,
    );
    expect(() => greyThumbnail({ data: new Uint8Array(4), width: 2, height: 2, channels: 1 }, 2, 0)).toThrow(
      /step/,
    );
  });
});
