/**
 * Set-of-mark: a numbered box drawn on each interactive element, so the model can say "click 12" while
 * still seeing the pixels. Drawn as one SVG overlay composited by libvips (one decode, one encode).
 */
import sharp, { type Sharp } from "sharp";
import type { Size, UiElement } from "../types.js";
import { inSight } from "./serialize.js";

/** High-contrast colours that cycle, so neighbouring marks are told apart. White text reads on all. */
export const MARK_COLOURS = ["#e6194b", "#3c44aa", "#008040", "#9a3fd1", "#c05800", "#0f6f8f"] as const;
/** Label height in px: legible to a model at the standard tier's ~0.75 downscale. */
const LABEL_HEIGHT = 16;
const LABEL_FONT_PX = 13;
/** Width of one digit at LABEL_FONT_PX in a bold sans font, plus padding. */
const DIGIT_WIDTH = 8;
const LABEL_PADDING = 3;

export interface MarkLabel {
  index: number;
  colour: string;
  /** The label's filled rectangle on the image. */
  rect: { x: number; y: number; width: number; height: number };
}

/** Where each element's number tag goes: its box's top-left corner, kept inside the image. */
export function layoutMarks(elements: UiElement[], size: Size): MarkLabel[] {
  return elements.map((el, i) => {
    const width = String(el.index).length * DIGIT_WIDTH + 2 * LABEL_PADDING;
    const x = clamp(Math.round(el.box.x), 0, size.width - width);
    // Above the box when there is room, so the tag does not cover the element's own text.
    const above = Math.round(el.box.y) - LABEL_HEIGHT;
    const y = clamp(above >= 0 ? above : Math.round(el.box.y), 0, size.height - LABEL_HEIGHT);
    return {
      index: el.index,
      colour: MARK_COLOURS[i % MARK_COLOURS.length]!,
      rect: { x, y, width, height: LABEL_HEIGHT },
    };
  });
}

/** The screenshot with each element's box outlined and its number drawn on a filled tag. */
export async function drawMarks(png: Buffer, size: Size, elements: UiElement[]): Promise<Buffer> {
  if (elements.length === 0) return png;
  return composite(sharp(png), size, elements);
}

/** The same on raw RGB pixels (the X11 frame buffer): one PNG encode instead of encode, decode, encode. */
export async function drawMarksRaw(rgb: Buffer, size: Size, elements: UiElement[]): Promise<Buffer> {
  return composite(sharp(rgb, { raw: { ...size, channels: 3 } }), size, elements);
}

function composite(image: Sharp, size: Size, all: UiElement[]): Promise<Buffer> {
  // An element out of sight has no place on the screenshot: a mark there would sit on something else.
  const elements = all.filter(inSight);
  const overlay =
    elements.length === 0 ? [] : [{ input: Buffer.from(marksSvg(elements, size)), top: 0, left: 0 }];
  return image.composite(overlay).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
}

/** The overlay as SVG: outlines first, then tags, so a neighbour's outline never crosses a number. */
export function marksSvg(elements: UiElement[], size: Size): string {
  const labels = layoutMarks(elements, size);
  const parts: string[] = [];
  for (const [i, el] of elements.entries()) {
    const colour = labels[i]!.colour;
    const { x, y, width, height } = el.box;
    parts.push(
      `<rect x="${x + 1}" y="${y + 1}" width="${Math.max(1, width - 2)}" height="${Math.max(1, height - 2)}" fill="none" stroke="${colour}" stroke-width="2"/>`,
    );
  }
  for (const label of labels) {
    const { x, y, width, height } = label.rect;
    parts.push(
      `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="${label.colour}"/>`,
      `<text x="${x + LABEL_PADDING}" y="${y + height - 3}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${LABEL_FONT_PX}" font-weight="bold" fill="#ffffff">${label.index}</text>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">${parts.join("")}</svg>`;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}
