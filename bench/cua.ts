/**
 * Computer-use benchmarks: the loop's own per-step overhead with a trivial in-memory environment, the
 * perceptual delta per 1400×800 frame pair, and the cost model's worked example as table lines. Timings
 * are returned as rows for `npm run bench`; targets are printed, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import {
  type Capture,
  contextAfter,
  DECODE_ONCE_CODEC,
  type Environment,
  EXAMPLE_RUN,
  type FrameCodec,
  greyThumbnail,
  IMAGE_HELPERS_CODEC,
  imageCostTable,
  type ObserveKind,
  perceptualDelta,
  runCuaEpisode,
  SAMPLE_STEP,
  type ScreenAction,
  ScriptedCuaPolicy,
  type ScriptedCuaStep,
  type Size,
  simulateRun,
  THUMBNAIL_SIDE,
  turnsUntilWindow,
} from "../src/cua/index.js";
import { encodeRaw, fillRect, syntheticScreen, thumbnail } from "../src/cua/testing/internals.js";
import { TrajectoryWriter } from "../src/trajectory/index.js";
import { summarise as summariseRow } from "./stats.js";

export interface CuaBenchRow {
  name: string;
  n: number;
  medianMs: number;
  p95Ms: number;
  targetMs: number | undefined;
}

/**
 * Harness time per step, excluding the model and the environment: one thumbnail, one downscale (when
 * the screen is larger than the tier allows), a PNG written, ledger, history, trajectory line. A
 * browser capture alone takes ~50–100 ms, so 30 ms keeps the harness a minor part of a step.
 */
export const CUA_STEP_OVERHEAD_TARGET_MS = 30;
/** Perceptual delta per frame pair: "a few ms" (pixelmatch measures 2–5 ms on these machines). */
export const DELTA_TARGET_MS = 5;

const summarise = (name: string, samples: readonly number[], targetMs?: number): CuaBenchRow =>
  summariseRow(name, samples, targetMs);

/** Two frames that differ by a panel, so every step is a visible change (no stall halts the run). */
async function framePair(size: Size): Promise<[Buffer, Buffer]> {
  const a = syntheticScreen(size.width, size.height);
  const b = syntheticScreen(size.width, size.height);
  fillRect(b, Math.round(size.width * 0.4), Math.round(size.height * 0.3), 300, 200, 60);
  return [await encodeRaw(Buffer.from(a.data), size, 4), await encodeRaw(Buffer.from(b.data), size, 4)];
}

/** Alternates two prepared frames; acting costs nothing. The loop's cost is what remains. */
class StaticFrames implements Environment {
  readonly kind = "browser" as const;
  private i = 0;
  constructor(
    readonly screen: Size,
    private readonly frames: [Buffer, Buffer],
  ) {}
  async reset(): Promise<void> {}
  async capture(_observe: ObserveKind): Promise<Capture> {
    const png = this.frames[this.i++ % 2] as Buffer;
    return { png, size: this.screen, captureMs: 0, elements: [] };
  }
  async act(_action: ScreenAction): Promise<void> {}
  async close(): Promise<void> {}
}

export async function benchCuaOverhead(options: { steps?: number } = {}): Promise<CuaBenchRow[]> {
  const steps = options.steps ?? 40;
  const rows: CuaBenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), "acilab-bench-cua-"));
  try {
    const small = { width: 1400, height: 800 };
    const arms: Array<[Size, FrameCodec, string]> = [
      [small, DECODE_ONCE_CODEC, ""],
      [small, IMAGE_HELPERS_CODEC, ", image.ts helpers"],
      [{ width: 1920, height: 1080 }, DECODE_ONCE_CODEC, ""],
    ];
    for (const [screen, codec, note] of arms) {
      const script: ScriptedCuaStep[] = Array.from({ length: steps }, (_, i) => ({
        click: { x: 10 + i, y: 10 },
      }));
      const trajectory = new TrajectoryWriter(join(dir, `${screen.width}.jsonl`));
      const outcome = await runCuaEpisode({
        env: new StaticFrames(screen, await framePair(screen)),
        policy: new ScriptedCuaPolicy("scripted:bench", script),
        task: { id: "bench", instruction: "Click around.", start: {} },
        observe: "screenshot",
        limits: { maxSteps: steps },
        settleMs: 0,
        trajectory,
        framesDir: join(dir, `frames-${screen.width}`),
        codec,
      });
      trajectory.close();
      if (outcome.stopReason !== "step_limit")
        throw new Error(`cua bench: episode ended ${outcome.stopReason}: ${outcome.detail}`);
      const label =
        outcome.model.width === screen.width
          ? "no downscale"
          : `→ ${outcome.model.width}×${outcome.model.height}`;
      rows.push(
        summarise(
          `cua loop overhead/step ${screen.width}×${screen.height} (${label}${note})`,
          outcome.overheadMs,
          CUA_STEP_OVERHEAD_TARGET_MS,
        ),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The perceptual delta per 1400×800 frame pair: from PNG bytes (the loop's path) and from raw pixels. */
export async function benchPerceptualDelta(options: { n?: number } = {}): Promise<CuaBenchRow[]> {
  const n = options.n ?? 30;
  const size = { width: 1400, height: 800 };
  const [a, b] = await framePair(size);
  const rawOf = async (png: Buffer) => {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  };
  const [ra, rb] = [await rawOf(a), await rawOf(b)];
  const fromPng: number[] = [];
  const fromRaw: number[] = [];
  const everyPixel: number[] = [];
  const compareOnly: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    const [ta, tb] = await Promise.all([thumbnail(a), thumbnail(b)]);
    perceptualDelta(ta, tb);
    fromPng.push(performance.now() - t);
    t = performance.now();
    perceptualDelta(greyThumbnail(ra), greyThumbnail(rb));
    fromRaw.push(performance.now() - t);
    t = performance.now();
    perceptualDelta(greyThumbnail(ra, THUMBNAIL_SIDE, 1), greyThumbnail(rb, THUMBNAIL_SIDE, 1));
    everyPixel.push(performance.now() - t);
    t = performance.now();
    perceptualDelta(ta, tb);
    compareOnly.push(performance.now() - t);
  }
  return [
    summarise("perceptual delta 1400×800 pair, from PNG (sharp decode+thumb ×2)", fromPng, DELTA_TARGET_MS),
    summarise(
      `perceptual delta 1400×800 pair, from raw RGBA (JS box thumb ×2, every ${SAMPLE_STEP}nd px and row)`,
      fromRaw,
      DELTA_TARGET_MS,
    ),
    summarise("perceptual delta 1400×800 pair, from raw RGBA, every pixel read (for comparison)", everyPixel),
    summarise("perceptual delta, 64×64 compare only", compareOnly),
  ];
}

const usd = (x: number) => `$${x.toFixed(3)}`;

/**
 * The cost model's worked example as printable lines, computed by the agent's own code, next to the
 * published figures for the same 7-turn run (Anthropic-style caching, $5/$25 per MTok).
 */
export function cuaCostLines(): string[] {
  const lines = ["image tokens per capture size and tier:"];
  for (const r of imageCostTable()) {
    const shrink = r.downscaled ? ` → ${r.model.width}×${r.model.height}` : " (as captured)";
    lines.push(
      `  ${r.capture.width}×${r.capture.height} ${r.tier.padEnd(8)}${shrink.padEnd(16)} ${r.tokens} tokens`,
    );
  }
  lines.push("7-turn run (2,400 + 1,600/turn; $5/$25 per MTok, cache read 0.1×, write 1.25×):");
  const published: Record<string, string> = {
    "false all": "0.265",
    "false last:3": "0.190",
    "true all": "0.107",
    "true last:3": "0.205",
  };
  for (const caching of [false, true]) {
    for (const history of ["all", "last:3", "last:2"]) {
      const r = simulateRun(EXAMPLE_RUN, 7, { caching, history });
      const ref = published[`${caching} ${history}`];
      lines.push(
        `  caching ${caching ? "on " : "off"} ${history.padEnd(7)} sent ${r.sentTokens} read ${r.cacheReadTokens} written ${r.cacheWriteTokens} → ${usd(r.costUsd)}${ref ? ` (published $${ref})` : ""}`,
      );
    }
  }
  const shape = { ...EXAMPLE_RUN, outputTokensPerTurn: 80 };
  lines.push("longer runs (80 output tokens/step):");
  for (const steps of [7, 30, 60, 120]) {
    const off = simulateRun(shape, steps, { caching: false });
    const on = simulateRun(shape, steps, { caching: true });
    const batch = simulateRun(shape, steps, { caching: true, history: "batch:3:8" });
    lines.push(
      `  ${String(steps).padStart(3)} steps: no cache ${usd(off.costUsd)}, cache ${usd(on.costUsd)} (${(off.costUsd / on.costUsd).toFixed(1)}×), cache+batch:3:8 ${usd(batch.costUsd)}; context ${contextAfter(shape, steps)}`,
    );
  }
  lines.push(
    `  200k window first exceeded at turn ${turnsUntilWindow(EXAMPLE_RUN, 200_000)}; 1M at turn ${turnsUntilWindow(EXAMPLE_RUN, 1_000_000)}`,
  );
  return lines;
}
