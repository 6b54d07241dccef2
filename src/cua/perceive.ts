/**
 * Seeing: one capture per step, and everything derived from those same bytes — the stall thumbnail,
 * the downscaled image the model is shown, the saved frame. Capturing twice (once for the detector,
 * once for the model) would let the screen move in between: a 0 % delta beside a changed image.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import sharp from "sharp";
import type { ImagePart } from "../messages/index.js";
import { downscalePng, thumbnail } from "./image.js";
import { greyThumbnail, THUMBNAIL_SIDE } from "./stall.js";
import {
  type Capture,
  type Environment,
  NoAccessibilityTreeError,
  type ObserveKind,
  type Size,
} from "./types.js";

/**
 * Element captures a screenshot run tries per step before that step goes without labels (the browser
 * environment already retries a capture across a page swap; this covers anything else transient).
 */
export const ELEMENT_CAPTURE_ATTEMPTS = 2;

/** From a capture's PNG to what the loop needs: the stall thumbnail and the model-size PNG. */
export interface FrameCodec {
  prepare(png: Buffer, model: Size): Promise<{ thumb: Uint8Array; png: Buffer }>;
}

/**
 * Decode once: the thumbnail is box-averaged from the raw pixels in JS, and only a frame larger than
 * the model size is resized (from the same raw pixels). image.ts's separate helpers decode the PNG
 * twice, and libvips's 64×64 resize alone measured ~150 ms here against ~25 ms for the JS average.
 */
export const DECODE_ONCE_CODEC: FrameCodec = {
  async prepare(png, model) {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const channels = info.channels as 1 | 3 | 4;
    const thumb = greyThumbnail({ data, width: info.width, height: info.height, channels }, THUMBNAIL_SIDE);
    if (info.width === model.width && info.height === model.height) return { thumb, png };
    const small = await sharp(data, { raw: { width: info.width, height: info.height, channels } })
      .resize(model.width, model.height, { fit: "fill", kernel: "lanczos3" })
      .png({ compressionLevel: 3 })
      .toBuffer();
    return { thumb, png: small };
  },
};

/** The shared helpers of image.ts, one call each (kept for comparison in the benchmark). */
export const IMAGE_HELPERS_CODEC: FrameCodec = {
  async prepare(png, model) {
    const [thumb, small] = await Promise.all([thumbnail(png, THUMBNAIL_SIDE), downscalePng(png, model)]);
    return { thumb, png: small };
  },
};

export interface Frame {
  capture: Capture;
  /** The size the model sees and answers in. */
  model: Size;
  image: ImagePart;
  /** The model-size PNG (what is saved and sent). */
  png: Buffer;
  thumb: Uint8Array;
  /** Where the PNG was written, when frames are kept. */
  path?: string;
  /** Time spent inside env.capture (environment, not harness). */
  envMs: number;
  /**
   * Set when this step's elements could not be captured on an environment that has them: the gate
   * cannot check a click's target, so it refuses clicks this step (fails closed).
   */
  unchecked?: string;
}

/** A frame plus what the model is told about it. */
export type SeenFrame = Frame & {
  /** The screen-text part of the observation (empty for a bare screenshot). */
  text: string;
  /** Elements click_element may name. */
  numbered: number;
};

export interface PerceiverOptions {
  env: Environment;
  observe: ObserveKind;
  /** The model image size for a given screen size (scaling's modelImageSize, or a fixed override). */
  modelSizeFor: (screen: Size) => Size;
  codec: FrameCodec;
  /** Directory for one PNG per step; its name is used in image refs ("frames/step-003.png"). */
  framesDir?: string;
}

export class Perceiver {
  /**
   * Screenshot-only runs still ask for the elements behind the picture: the confirmation gate reads
   * the target's label from them, and scripted policies resolve targets with them. The model is not
   * shown them. Only an environment with no accessibility tree at all (NoAccessibilityTreeError) falls
   * back to the bare screenshot for good; one failed element capture costs that step its labels only.
   */
  private kind: ObserveKind;
  private elementsUnavailable: string | undefined;

  constructor(private readonly options: PerceiverOptions) {
    this.kind = options.observe === "screenshot" ? "a11y" : options.observe;
    if (options.framesDir) mkdirSync(options.framesDir, { recursive: true });
  }

  /** Why the gate has no labels on this environment, if it has none. */
  get elementsNote(): string | undefined {
    return this.elementsUnavailable;
  }

  /** A fresh capture of the same kind, for re-checking an element before acting on its number. */
  async snapshot(): Promise<Capture> {
    return (await this.capture()).capture;
  }

  async take(step: number): Promise<Frame> {
    const started = performance.now();
    const { capture, unchecked } = await this.capture();
    const envMs = performance.now() - started;
    const model = this.options.modelSizeFor(capture.size);
    const { thumb, png } = await this.options.codec.prepare(capture.png, model);
    const image: ImagePart = {
      type: "image",
      mediaType: "image/png",
      data: png.toString("base64"),
      width: model.width,
      height: model.height,
    };
    const frame: Frame = { capture, model, image, png, thumb, envMs };
    if (unchecked) frame.unchecked = unchecked;
    const dir = this.options.framesDir;
    if (dir) {
      const name = `step-${String(step).padStart(3, "0")}.png`;
      frame.path = join(dir, name);
      writeFileSync(frame.path, png);
      image.ref = `${basename(dir)}/${name}`;
    }
    return frame;
  }

  private async capture(): Promise<{ capture: Capture; unchecked?: string }> {
    const env = this.options.env;
    if (this.kind !== "a11y" || this.options.observe !== "screenshot")
      return { capture: await env.capture(this.kind) };
    let last: unknown;
    for (let attempt = 1; attempt <= ELEMENT_CAPTURE_ATTEMPTS; attempt++) {
      try {
        return { capture: await env.capture("a11y") };
      } catch (err) {
        if (err instanceof NoAccessibilityTreeError) {
          this.kind = "screenshot";
          this.elementsUnavailable = `no accessibility tree on this ${env.kind} environment (${err.message}); the confirmation gate cannot read labels`;
          return { capture: await env.capture("screenshot") };
        }
        last = err;
      }
    }
    const cause = last instanceof Error ? last.message : String(last);
    return { capture: await env.capture("screenshot"), unchecked: `its element capture failed: ${cause}` };
  }
}
