/**
 * The edge of the inspector: the files one run folder holds (trajectory.jsonl, result.json, patch.diff,
 * report.json and, for computer use, the frames), read without trusting them. A file that is missing
 * or broken becomes a warning the inspector shows, never an exception: one bad attempt must not cost
 * the whole report. Frames are re-encoded small (JPEG) before they go into the page, within a budget
 * shared by the whole page.
 */
import { constants, existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { type ReadTrajectory, readAttemptTrajectory } from "../experiment/index.js";
import type { TurnRecord } from "../trajectory/index.js";
import { openInside, PathError } from "../workspace/index.js";
import type { RunFiles } from "./inspect-model.js";

/** Frames are shown at most this wide: enough to read a page, a tenth of a full screenshot's bytes. */
const FRAME_WIDTH = 640;
/** Bytes of frames one page may embed; past it, frames are named, not shown. */
export const FRAME_BUDGET_BYTES = 48 * 1024 * 1024;
/** A text file bigger than this is not read into the page. */
const MAX_TEXT_BYTES = 16 * 1024 * 1024;
/** A frame file bigger than this is not decoded (a full 4K PNG is ~25 MB). */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** Bytes of frames a page may still embed; once one does not fit, no later frame is decoded. */
export interface FrameBudget {
  left: number;
  spent: boolean;
}

export const frameBudget = (bytes = FRAME_BUDGET_BYTES): FrameBudget => ({ left: bytes, spent: false });

/** A run folder with nothing in it to show, and why. */
export const emptyRunFiles = (why: string): RunFiles => ({
  records: null,
  trajectory: "missing",
  warnings: [why],
  result: null,
  patch: null,
  report: null,
  frames: new Map(),
  framesLeftOut: new Set(),
});

type Read = { bytes: Buffer } | { absent: true } | { problem: string };

/** What a reader of the page needs to know about a file that could not be read (not the model's wording). */
function problemOf(name: string, e: unknown): Read {
  if (e instanceof PathError) {
    if (e.kind === "not_found") return { absent: true };
    if (e.kind === "outside_workspace")
      return { problem: `${name} points outside the run folder: not shown` };
    if (e.kind === "is_directory") return { problem: `${name} is a directory, not a file: not shown` };
  }
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return { absent: true };
  return { problem: `${name} could not be read (${code ?? (e instanceof Error ? e.message : String(e))})` };
}

async function readInside(root: string, name: string, limit: number): Promise<Read> {
  let handle: Awaited<ReturnType<typeof openInside>> | undefined;
  try {
    handle = await openInside(root, name, constants.O_RDONLY);
    const st = await handle.stat();
    if (st.isDirectory()) return { problem: `${name} is a directory, not a file: not shown` };
    if (!st.isFile()) return { problem: `${name} is not a regular file: not shown` };
    if (st.size > limit)
      return { problem: `${name} is ${st.size} bytes, over the inspector's cap of ${limit}` };
    return { bytes: await handle.readFile() };
  } catch (e) {
    return problemOf(name, e);
  } finally {
    await handle?.close();
  }
}

/** A text file's content, null when absent; why it could not be read goes to `warnings`. */
async function text(root: string, name: string, warnings: string[]): Promise<string | null> {
  const got = await readInside(root, name, MAX_TEXT_BYTES);
  if ("problem" in got) warnings.push(got.problem);
  return "bytes" in got ? got.bytes.toString("utf8") : null;
}

async function json(root: string, name: string, warnings: string[]): Promise<unknown> {
  const raw = await text(root, name, warnings);
  if (raw === null) return null;
  try {
    return JSON.parse(raw);
  } catch (e) {
    warnings.push(
      `${name} is not valid JSON (${e instanceof Error ? e.message : String(e)}): shown without it`,
    );
    return null;
  }
}

async function frameUri(
  root: string,
  ref: string,
  budget: FrameBudget,
  warnings: string[],
): Promise<string | null> {
  if (budget.spent) return null;
  const got = await readInside(root, ref, MAX_FRAME_BYTES);
  if ("problem" in got) warnings.push(`frame ${got.problem}`);
  if (!("bytes" in got)) return null;
  try {
    const jpeg = await sharp(got.bytes)
      .resize({ width: FRAME_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: 72 })
      .toBuffer();
    if (jpeg.length > budget.left) {
      budget.spent = true;
      return null;
    }
    budget.left -= jpeg.length;
    return `data:image/jpeg;base64,${jpeg.toString("base64")}`;
  } catch (e) {
    warnings.push(
      `frame ${ref} is not an image sharp can read (${e instanceof Error ? e.message : String(e)})`,
    );
    return null;
  }
}

/**
 * Everything the inspector shows of the run in `dir`. `trajectory` is the trajectory already read (an
 * experiment's analysis read it); without it, the one beside result.json is read.
 */
export async function readRunFolder(
  dir: string,
  budget: FrameBudget,
  trajectory?: ReadTrajectory,
): Promise<RunFiles> {
  const read = trajectory ?? readAttemptTrajectory(join(dir, "trajectory.jsonl"));
  const warnings = [...read.warnings];
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    const none = emptyRunFiles(`${dir} does not exist`);
    return {
      ...none,
      records: read.records,
      trajectory: read.state,
      warnings: [...warnings, ...none.warnings],
    };
  }
  const result = await json(root, "result.json", warnings);
  const patch = await text(root, "patch.diff", warnings);
  const report = await json(root, "report.json", warnings);
  const frames = new Map<string, string>();
  const skipped: string[] = [];
  for (const r of read.records ?? []) {
    if (r?.type !== "turn") continue;
    const ref = (r as TurnRecord & { cua?: { frame?: unknown } }).cua?.frame;
    if (typeof ref !== "string" || frames.has(ref)) continue;
    const uri = await frameUri(root, ref, budget, warnings);
    if (uri) frames.set(ref, uri);
    else if (budget.spent) skipped.push(ref);
  }
  if (skipped.length > 0)
    warnings.push(
      `${skipped.length} frame(s) left out: the page's ${Math.round(FRAME_BUDGET_BYTES / 1024 / 1024)} MB of frames is spent — they are in ${join(dir, "frames")}`,
    );
  return {
    records: read.records,
    trajectory: read.state,
    warnings,
    result:
      result !== null && typeof result === "object" && !Array.isArray(result)
        ? (result as Record<string, unknown>)
        : null,
    patch,
    report,
    frames,
    framesLeftOut: new Set(skipped),
  };
}

/** True when `dir` looks like a run's output: `acilab inspect` on a wrong path gets a clear error. */
export function hasRunFiles(dir: string): boolean {
  return ["trajectory.jsonl", "result.json"].some((name) => existsSync(join(dir, name)));
}
