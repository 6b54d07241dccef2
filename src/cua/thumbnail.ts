/**
 * The stall detector's view of a frame: a small greyscale thumbnail, box-averaged from a sample of the
 * frame's pixels. It runs on every step of every computer-use episode, so it is written for speed:
 * one pass per cell over 32-bit pixels, no per-pixel table look-ups, every other row and column.
 */

/** Raw pixels, row-major, `channels` bytes a pixel (3 = RGB, 4 = RGBA, 1 = grey). */
export interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

/** Thumbnail side: a 64×64 grid averages a few-pixel cursor into one barely changed cell. */
export const THUMBNAIL_SIDE = 64;

/**
 * Sample every 2nd pixel of every 2nd row: a 1400×800 cell still averages ~70 samples (noise of ±8
 * grey levels averages to ±1, far inside DELTA_TOLERANCE), for a quarter of the reads. Features two
 * or more pixels wide are seen as before; a 1-pixel line may be missed or counted double, but such a
 * line never moved 0.5 % of the cells even when every pixel was read (see thumbnail.test.ts).
 */
export const SAMPLE_STEP = 2;

/** ITU-R 601 luma in 16.16 fixed point (PIL's "L"): 0.299 R + 0.587 G + 0.114 B. */
const LUMA_R = 19595;
const LUMA_G = 38470;
const LUMA_B = 7471;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Box-averaged greyscale thumbnail. Source row y belongs to cell row ⌊y·side/height⌋ and column x to
 * cell column ⌊x·side/width⌋, as when every pixel was read; each cell averages the sampled pixels
 * that fall in it (its first row and column always among them, so no non-empty cell goes unsampled).
 */
export function greyThumbnail(image: Pixels, side = THUMBNAIL_SIDE, step = SAMPLE_STEP): Uint8Array {
  const { data, width, height, channels } = image;
  if (data.length < width * height * channels) {
    throw new RangeError(`greyThumbnail: ${data.length} bytes is too few for ${width}×${height}×${channels}`);
  }
  if (!(Number.isInteger(step) && step >= 1)) throw new RangeError(`greyThumbnail: step ${step} is not ≥ 1`);
  const colStart = bandStarts(width, side);
  const rowStart = bandStarts(height, side);
  // Sums in doubles: exact to 2^53, where 32-bit sums of 16.16 luma overflow past ~250 pixels a cell.
  const sums = new Float64Array(side * side);
  const samples = new Float64Array(side * side);
  const words = channels === 4 && LITTLE_ENDIAN && data.byteOffset % 4 === 0;
  const u32 = words ? new Uint32Array(data.buffer, data.byteOffset, width * height) : undefined;
  for (let r = 0; r < side; r++) {
    const y0 = rowStart[r] as number;
    const y1 = rowStart[r + 1] as number;
    for (let y = y0; y < y1; y += step) {
      const rowBase = y * width;
      for (let c = 0; c < side; c++) {
        const x0 = colStart[c] as number;
        const x1 = colStart[c + 1] as number;
        if (x0 >= x1) continue;
        let s = 0;
        let n = 0;
        if (u32) {
          for (let x = x0; x < x1; x += step, n++) {
            const p = u32[rowBase + x] as number;
            s += LUMA_R * (p & 255) + LUMA_G * ((p >>> 8) & 255) + LUMA_B * ((p >>> 16) & 255);
          }
        } else if (channels === 1) {
          for (let x = x0; x < x1; x += step, n++) s += 65536 * (data[rowBase + x] as number);
        } else {
          for (let x = x0; x < x1; x += step, n++) {
            const i = (rowBase + x) * channels;
            s +=
              LUMA_R * (data[i] as number) +
              LUMA_G * (data[i + 1] as number) +
              LUMA_B * (data[i + 2] as number);
          }
        }
        const cell = r * side + c;
        sums[cell] = (sums[cell] as number) + s;
        samples[cell] = (samples[cell] as number) + n;
      }
    }
  }
  const out = new Uint8Array(side * side);
  for (let cell = 0; cell < out.length; cell++) {
    const n = samples[cell] as number;
    out[cell] = n === 0 ? 0 : Math.min(255, Math.round((sums[cell] as number) / n / 65536));
  }
  return out;
}

/** First source index of each of `side` bands, plus `length` at the end: band b = ⌊i·side/length⌋. */
function bandStarts(length: number, side: number): Uint32Array {
  const starts = new Uint32Array(side + 1);
  for (let b = 0; b <= side; b++) starts[b] = Math.min(length, Math.ceil((b * length) / side));
  return starts;
}
