/**
 * The one image toolkit the computer-use code shares: downscale a capture before it is encoded for
 * the model, and shrink it to the small greyscale grid the stall detector compares. Both run in
 * libvips (sharp), because a pure-JS PNG encode of a 1400×800 frame costs ~180 ms per step.
 */
import sharp from "sharp";
import type { Size } from "./types.js";

/** libvips caches decoded images by default; captures are never reused, so the cache only costs memory. */
sharp.cache(false);

/**
 * Resize a PNG to exactly `size` (the scaling module computes a same-aspect size, so `fill` does not
 * distort). Lanczos keeps small text legible for the model. Returns the input bytes unchanged when the
 * size already matches, so a model that sees full resolution pays no re-encode.
 */
export async function downscalePng(png: Buffer, size: Size): Promise<Buffer> {
  assertSize(size, "downscalePng");
  const meta = await sharp(png).metadata();
  if (meta.width === size.width && meta.height === size.height) return png;
  return sharp(png)
    .resize(size.width, size.height, { fit: "fill", kernel: "lanczos3" })
    .png({ compressionLevel: 3 })
    .toBuffer();
}

/**
 * A `side`×`side` greyscale thumbnail (one byte per cell, row-major): each cell is the area average of
 * its part of the frame, so a blinking cursor or antialiasing dilutes into a cell instead of flipping it.
 */
export async function thumbnail(png: Buffer, side = 64): Promise<Uint8Array> {
  assertSize({ width: side, height: side }, "thumbnail");
  const { data, info } = await sharp(png)
    .greyscale()
    // "cubic" would overshoot at sharp edges; a box-like average is what the detector's tolerance assumes.
    .resize(side, side, { fit: "fill", kernel: "linear" })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.width !== side || info.height !== side || info.channels !== 1 || data.length !== side * side) {
    throw new Error(
      `thumbnail: libvips returned ${info.width}×${info.height}×${info.channels}, not ${side}×${side}×1`,
    );
  }
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}

/** Width and height of a PNG, read from its header (no decode). */
export function pngSize(png: Buffer): Size {
  // Signature (8) + IHDR length (4) + "IHDR" (4), then width and height as big-endian u32.
  if (png.length < 24 || png.toString("latin1", 12, 16) !== "IHDR") {
    throw new Error("pngSize: not a PNG (no IHDR chunk at byte 12) — pass the bytes a capture returned");
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Encode raw RGB(A) pixels as PNG, fast: captures are encoded every step. */
export async function encodeRaw(
  pixels: Buffer,
  size: Size,
  channels: 3 | 4,
  compressionLevel = 1,
): Promise<Buffer> {
  return sharp(pixels, { raw: { width: size.width, height: size.height, channels } })
    .png({ compressionLevel, adaptiveFiltering: false })
    .toBuffer();
}

function assertSize(size: Size, what: string): void {
  const ok = (n: number) => Number.isInteger(n) && n > 0 && n <= 16_384;
  if (!ok(size.width) || !ok(size.height)) {
    throw new Error(`${what}: size ${size.width}×${size.height} is not a positive integer size ≤ 16384`);
  }
}
