import sharp, { type OverlayOptions } from "sharp";
import { esc } from "./app/html.js";

/** One tile of the sheet: the frame the model saw at a step and what it did next. */
export interface SheetFrame {
  step: number;
  png: Buffer;
  /** "click Save", "type \"Apollo\"", "done" … ; shortened to fit one line. */
  caption: string;
}

export interface SheetOptions {
  /** Tile width in pixels; frames keep their aspect ratio. */
  tileWidth?: number;
  columns?: number;
  title?: string;
}

/** Wide enough to read a button label, small enough that a 10-step episode stays well under 1 MB. */
const DEFAULT_TILE_WIDTH = 420;
const DEFAULT_COLUMNS = 4;
const CAPTION_HEIGHT = 30;
const TITLE_HEIGHT = 36;
const GAP = 8;
/** Characters that fit on a caption line at 14 px in a 420 px tile. */
const CAPTION_CHARS = 52;

/**
 * Tile an episode's frames into one PNG, each captioned with its step number and action, so a
 * person can read a run at a glance (the README's computer-use image is one of these).
 */
export async function contactSheet(frames: SheetFrame[], options: SheetOptions = {}): Promise<Buffer> {
  if (frames.length === 0) throw new Error("contact sheet: the episode has no frames to tile");
  const tileW = options.tileWidth ?? DEFAULT_TILE_WIDTH;
  const columns = Math.min(options.columns ?? DEFAULT_COLUMNS, frames.length);
  const first = await sharp(frames[0]!.png).metadata();
  const tileH = Math.round((tileW * (first.height ?? 1)) / (first.width ?? 1));
  const rows = Math.ceil(frames.length / columns);
  const top = options.title ? TITLE_HEIGHT : 0;
  const width = GAP + columns * (tileW + GAP);
  const height = top + GAP + rows * (tileH + CAPTION_HEIGHT + GAP);

  const layers: OverlayOptions[] = [];
  if (options.title)
    layers.push({
      input: textBar(options.title, width, TITLE_HEIGHT, 18, "#25324a", "#fff"),
      top: 0,
      left: 0,
    });
  for (const [i, frame] of frames.entries()) {
    const left = GAP + (i % columns) * (tileW + GAP);
    const y = top + GAP + Math.floor(i / columns) * (tileH + CAPTION_HEIGHT + GAP);
    const thumb = await sharp(frame.png).resize(tileW, tileH, { fit: "fill" }).png().toBuffer();
    layers.push({ input: thumb, top: y, left });
    const caption = `${frame.step}. ${shorten(frame.caption, CAPTION_CHARS)}`;
    layers.push({
      input: textBar(caption, tileW, CAPTION_HEIGHT, 14, "#eef1f6", "#1d2330"),
      top: y + tileH,
      left,
    });
  }
  return sharp({ create: { width, height, channels: 3, background: "#c9ced8" } })
    .composite(layers)
    .png({ palette: true, compressionLevel: 9 })
    .toBuffer();
}

function textBar(text: string, width: number, height: number, size: number, bg: string, fg: string): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="${bg}"/>
<text x="8" y="${Math.round(height / 2 + size / 3)}" font-family="DejaVu Sans, sans-serif" font-size="${size}" fill="${fg}">${esc(text)}</text>
</svg>`;
  return Buffer.from(svg);
}

function shorten(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}
