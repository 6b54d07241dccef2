/**
 * Synthetic screens for tests and benchmarks: a deterministic "app" (toolbar, sidebar, lines of text)
 * as raw RGBA, so the stall detector and the loop can be exercised without a browser.
 */
import type { Pixels } from "../stall.js";

/** A light UI: dark toolbar, grey sidebar, rows of dark "words" on white. The same every call. */
export function syntheticScreen(width: number, height: number): Pixels & { channels: 4 } {
  const image = { data: new Uint8Array(width * height * 4).fill(255), width, height, channels: 4 as const };
  fillRect(image, 0, 0, width, 40, 50);
  fillRect(image, 0, 40, Math.floor(width / 7), height - 40, 225);
  let seed = 1;
  for (let y = 70; y + 10 < height; y += 28) {
    for (let x = Math.floor(width / 7) + 24; x < width - 60; ) {
      seed = (seed * 48271) % 2147483647;
      const word = 20 + (seed % 70);
      fillRect(image, x, y, Math.min(word, width - x), 10, 70 + (seed % 60));
      x += word + 12;
    }
  }
  return image;
}

/** Paints a grey rectangle (clipped to the image). */
export function fillRect(image: Pixels, x: number, y: number, w: number, h: number, grey: number): void {
  const { data, width, height, channels } = image;
  for (let yy = Math.max(0, y); yy < Math.min(height, y + h); yy++) {
    for (let xx = Math.max(0, x); xx < Math.min(width, x + w); xx++) {
      const i = (yy * width + xx) * channels;
      for (let c = 0; c < Math.min(3, channels); c++) data[i + c] = grey;
      if (channels === 4) data[i + 3] = 255;
    }
  }
}
