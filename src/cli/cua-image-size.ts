/**
 * `acilab cua image-size --screen WxH --tier standard|high [--json]`: the image a model is shown for a
 * screen, what it costs, and how its clicks map back — the numbers behind the coordinate-scaling bug
 * of computer-use agents: a click aimed on the downscaled image lands elsewhere unless mapped back.
 * The `acilab cua` dispatcher (cua-command.ts) calls `imageSizeCommand`.
 */
import {
  clickMapping,
  imageTokens,
  modelImageSize,
  PATCH_PX,
  parseSize,
  parseTier,
  type Size,
  toScreen,
  type VisionTier,
} from "../cua/index.js";
import { UsageError } from "./args.js";
import { optionLines, parseOptions } from "./options.js";

const COMMAND = "cua image-size";

export const IMAGE_SIZE_OPTIONS = {
  screen: { type: "string", value: "WxH", help: "the captured screen, e.g. 1920x1080 (required)" },
  tier: { type: "string", value: "NAME", help: "standard or high", default: "standard" },
  json: { type: "boolean", help: "one JSON object instead of text" },
} as const;

export const IMAGE_SIZE_HELP = `acilab cua image-size — the image a model sees for a screen, its tokens and click mapping

Usage: acilab cua image-size --screen WxH [--tier standard|high] [--json]

The model image size for a screen on a provider's vision tier: the largest same-aspect size under
both caps (standard: 1568 px long edge, 1568 tokens; high: 2576 px, 4784 tokens), its tokens
(ceil(w/28) × ceil(h/28)) and the factors that map a click from the model's image to the screen.

Options:
${optionLines(IMAGE_SIZE_OPTIONS)}

Example: acilab cua image-size --screen 1920x1080 --tier standard  →  1456×819, 1560 tokens`;

export interface ImageSizeReport {
  screen: Size;
  tier: VisionTier;
  model: Size;
  tokens: number;
  patches: { columns: number; rows: number };
  downscaled: boolean;
  /** Screen pixels per model pixel, per axis. */
  scale: { x: number; y: number };
  /** The model's centre mapped back, as a worked example. */
  example: { model: { x: number; y: number }; screen: { x: number; y: number } };
}

export function imageSizeReport(screen: Size, tier: VisionTier): ImageSizeReport {
  const model = modelImageSize(screen, tier);
  const mapping = clickMapping(model, screen);
  const centre = { x: Math.floor(model.width / 2), y: Math.floor(model.height / 2) };
  return {
    screen,
    tier,
    model,
    tokens: imageTokens(model),
    patches: { columns: Math.ceil(model.width / PATCH_PX), rows: Math.ceil(model.height / PATCH_PX) },
    downscaled: model.width !== screen.width || model.height !== screen.height,
    scale: { x: mapping.scaleX, y: mapping.scaleY },
    example: { model: centre, screen: toScreen(centre.x, centre.y, model, screen) },
  };
}

export function formatImageSize(r: ImageSizeReport): string {
  const f = (n: number) => n.toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
  return [
    `screen       ${r.screen.width}×${r.screen.height}`,
    `tier         ${r.tier.name} (long edge ≤ ${r.tier.maxLongEdge} px, ≤ ${r.tier.maxTokens} tokens)`,
    `model image  ${r.model.width}×${r.model.height}${r.downscaled ? " (downscaled before encoding)" : " (as captured)"}`,
    `tokens       ${r.tokens} (${r.patches.columns} × ${r.patches.rows} patches of ${PATCH_PX} px)`,
    `click map    x_screen = floor(x × ${f(r.scale.x)} + 0.5), y_screen = floor(y × ${f(r.scale.y)} + 0.5), clamped to the screen`,
    `centre       model (${r.example.model.x}, ${r.example.model.y}) → screen (${r.example.screen.x}, ${r.example.screen.y})`,
  ].join("\n");
}

/** Runs the command; returns the exit code. Bad arguments throw UsageError (exit 2 in main). */
export async function imageSizeCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseOptions(COMMAND, argv, IMAGE_SIZE_OPTIONS);
  if (values.help) {
    out(IMAGE_SIZE_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, COMMAND);
  if (!values.screen) throw new UsageError("--screen WxH is required, e.g. --screen 1920x1080", COMMAND);
  let report: ImageSizeReport;
  try {
    report = imageSizeReport(parseSize(values.screen, "--screen"), parseTier(values.tier));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err), COMMAND);
  }
  out(
    values.json
      ? JSON.stringify({ ...report, tier: report.tier.name, tier_caps: report.tier }, null, 2)
      : formatImageSize(report),
  );
  return 0;
}
