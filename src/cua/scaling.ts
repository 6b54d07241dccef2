/**
 * Screen ↔ model image geometry. Providers shrink a large screenshot before the model sees it, and the
 * model answers in the coordinates of the image it saw; a harness that forgets to map them back clicks
 * hundreds of pixels away (the coordinate-scaling bug). We downscale ourselves, to the same size the
 * provider would, so the bytes sent are the bytes billed and the mapping is exact.
 */
import type { Size } from "./types.js";

/** A provider's vision tier: two caps that must both hold after downscaling. */
export interface VisionTier {
  name: TierName;
  /** Longest edge the provider serves without shrinking the image. */
  maxLongEdge: number;
  /** Most image tokens per image, counted on the 28-pixel patch grid. */
  maxTokens: number;
}

export type TierName = "standard" | "high";

/** Claude's vision tiers: standard (up to Opus 4.6 / Sonnet / Haiku) and high-resolution (Opus 4.7+). */
export const TIERS: Readonly<Record<TierName, VisionTier>> = {
  standard: { name: "standard", maxLongEdge: 1568, maxTokens: 1568 },
  high: { name: "high", maxLongEdge: 2576, maxTokens: 4784 },
};

/** Side of one visual-token patch: each started 28×28 block of the image costs one token. */
export const PATCH_PX = 28;

/** Image tokens of a w×h image: one per 28×28 patch, partial patches counted whole. */
export function imageTokens(size: Size): number {
  return Math.ceil(size.width / PATCH_PX) * Math.ceil(size.height / PATCH_PX);
}

function checkSize(size: Size, what: string): void {
  if (!Number.isInteger(size.width) || !Number.isInteger(size.height) || size.width < 1 || size.height < 1) {
    throw new RangeError(`${what}: expected positive whole pixels, got ${size.width}×${size.height}`);
  }
}

/**
 * The largest same-aspect size that fits both of the tier's caps; the screen itself when it already
 * fits (never upscaled). Walks the long edge down from its cap and rounds the short edge, so 1920×1080
 * on the standard tier gives 1456×819 (1,560 tokens), not the edge-only 1568×882 (1,792 tokens).
 * Tokens never decrease as the long edge grows, so the first size that fits is the largest.
 */
export function modelImageSize(screen: Size, tier: VisionTier): Size {
  checkSize(screen, "modelImageSize(screen)");
  const landscape = screen.width >= screen.height;
  const long = landscape ? screen.width : screen.height;
  const short = landscape ? screen.height : screen.width;
  const orient = (l: number, s: number): Size =>
    landscape ? { width: l, height: s } : { width: s, height: l };
  for (let l = Math.min(long, tier.maxLongEdge); l >= 1; l--) {
    const s = l === long ? short : Math.max(1, Math.round((short * l) / long));
    const size = orient(l, s);
    if (imageTokens(size) <= tier.maxTokens) return size;
  }
  return orient(1, 1);
}

/** How a click in the model's image maps to the screen: one ratio per axis. */
export interface ClickMapping {
  model: Size;
  screen: Size;
  /** Screen pixels per model pixel, horizontally and vertically (they differ after rounding). */
  scaleX: number;
  scaleY: number;
}

export function clickMapping(model: Size, screen: Size): ClickMapping {
  return { model, screen, scaleX: screen.width / model.width, scaleY: screen.height / model.height };
}

/**
 * Maps a point in the model's image to the screen: separate x and y ratios, round half up, clamp to
 * the screen (rounding at the far edge can land one pixel outside). Example: (728, 410) on
 * 1456×819 → (960, 541) on 1920×1080.
 */
export function toScreen(x: number, y: number, model: Size, screen: Size): { x: number; y: number } {
  const sx = Math.floor((x * screen.width) / model.width + 0.5);
  const sy = Math.floor((y * screen.height) / model.height + 0.5);
  return { x: clamp(sx, 0, screen.width - 1), y: clamp(sy, 0, screen.height - 1) };
}

/** The inverse, for showing screen things (element centres) in the model's space. */
export function toModel(x: number, y: number, model: Size, screen: Size): { x: number; y: number } {
  const mx = Math.floor((x * model.width) / screen.width + 0.5);
  const my = Math.floor((y * model.height) / screen.height + 0.5);
  return { x: clamp(mx, 0, model.width - 1), y: clamp(my, 0, model.height - 1) };
}

/**
 * Bounds are checked in the MODEL's space: the model can only mean a point of the image it saw. A
 * check against the screen would let (1500, 100) through on a 1456-wide image and click somewhere the
 * model never saw (a known anchor bug). Returns an error phrased for the model, or undefined.
 */
export function checkModelPoint(x: number, y: number, model: Size): string | undefined {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return `the point (${x}, ${y}) is not a pair of numbers`;
  if (x >= 0 && y >= 0 && x < model.width && y < model.height) return undefined;
  return (
    `(${x}, ${y}) is outside the screenshot, which is ${model.width}×${model.height}: ` +
    `use x in 0..${model.width - 1} and y in 0..${model.height - 1}, measured on the image you were shown`
  );
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** Parses "1920x1080" (or "1920×1080"); the error says what a valid one looks like. */
export function parseSize(text: string, what = "size"): Size {
  const m = /^\s*(\d+)\s*[x×X]\s*(\d+)\s*$/.exec(text);
  const size = m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
  if (!size || size.width < 1 || size.height < 1 || size.width > 16384 || size.height > 16384) {
    throw new Error(`${what} "${text}" is not WIDTHxHEIGHT in pixels (1..16384 each), e.g. 1400x800`);
  }
  return size;
}

/** Screens the loopback app is laid out for; bigger or smaller still work but waste tokens or hide text. */
export const SCREEN_MIN_SIDE = 320;
export const SCREEN_MAX_SIDE = 3840;

/**
 * A browser screen, as `acilab cua --resolution` and experiment files take it: "WIDTHxHEIGHT" with
 * each side within the bounds the task app is laid out for.
 */
export function parseScreen(text: string): Size {
  const m = /^(\d+)x(\d+)$/i.exec(text.trim());
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  if (!m || [width, height].some((n) => n < SCREEN_MIN_SIDE || n > SCREEN_MAX_SIDE))
    throw new Error(
      `resolution must be WIDTHxHEIGHT with each side ${SCREEN_MIN_SIDE}–${SCREEN_MAX_SIDE}, e.g. 1400x800; got "${text}"`,
    );
  return { width, height };
}

export function parseTier(text: string): VisionTier {
  if (text === "standard" || text === "high") return TIERS[text];
  throw new Error(
    `tier "${text}" is unknown: use standard (1568 px / 1568 tokens) or high (2576 px / 4784 tokens)`,
  );
}
