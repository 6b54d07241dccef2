import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Policy } from "../../policies/index.js";
import { TrajectoryWriter } from "../../trajectory/index.js";
import { createEnvironment } from "../env/index.js";
import { type CuaLimits, type CuaOutcome, DEFAULT_CUA_LIMITS, type FrameRecord } from "../episode.js";
import type { ConfirmHook } from "../gate.js";
import { runCuaEpisode } from "../loop.js";
import type { TierName } from "../scaling.js";
import type { ObserveKind, Size } from "../types.js";
import { frameCaptions } from "./captions.js";
import { startTaskEpisode } from "./catalog.js";
import { contactSheet } from "./contact-sheet.js";
import { LabelledEnvironment } from "./labelled-env.js";
import { cuaPolicy } from "./policy.js";
import type { CuaTask, Grade } from "./types.js";

/** Past the episode's wall clock, how long to wait for a step in flight before closing the browser. */
const HANG_GRACE_MS = 15_000;
/** Closing a browser takes well under a second; one stuck in a close must not hold the run. */
const CLOSE_TIMEOUT_MS = 10_000;

export interface CuaTaskRunOptions {
  task: CuaTask;
  /** "scripted" (the task's reference script) or any model spec `acilab run` takes. */
  policySpec: string;
  /** A ready policy instead of the spec (tests script their own misbehaving agents). */
  policy?: Policy;
  observe: ObserveKind;
  /** The screen the browser renders and captures; the model's image follows the tier. */
  screen: Size;
  /** Folder for trajectory.jsonl, frames/, result.json and contact-sheet.png. */
  out: string;
  tier?: TierName;
  limits?: Partial<CuaLimits>;
  /** Asked before a destructive click; default: deny (headless). */
  confirm?: ConfirmHook;
  signal?: AbortSignal;
}

/** result.json of one episode: the fields first, then what explains them. */
export interface CuaTaskResult {
  task: string;
  policy: string;
  observe: ObserveKind;
  resolution: string;
  resolved: boolean;
  stop_reason: CuaOutcome["stopReason"];
  steps: number;
  tokens_in: number;
  cost_usd: number | null;
  tokens_estimated: boolean;
  grade: Grade;
  detail: string;
  model_image: string;
  /** Destructive clicks the confirmation gate refused. */
  blocked: string[];
  /** Requests the egress allowlist refused ("CONNECT host:443", "GET http://…"). */
  egress_refused: string[];
  /** Where the app saw the secret API key arrive (empty = it never left). */
  key_leaks: string[];
  wall_s: number;
  frames: FrameRecord[];
  contact_sheet: string | null;
}

/**
 * One episode of a built-in task, end to end: a fresh app and browser, the loop, the grade on the
 * app's final state, then the files a person reads (result.json, the contact sheet).
 */
export async function runCuaTask(options: CuaTaskRunOptions): Promise<CuaTaskResult> {
  const { task, out } = options;
  mkdirSync(out, { recursive: true });
  const episode = await startTaskEpisode(task);
  const env = new LabelledEnvironment(createEnvironment("browser", options.screen));
  const trajectory = new TrajectoryWriter(join(out, "trajectory.jsonl"));
  const policy = options.policy ?? cuaPolicy(options.policySpec, task);
  let outcome: CuaOutcome;
  let egress: string[] = [];
  // The loop checks its wall clock between steps; a browser call that never returns would outlive
  // it. Closing the environment makes that call fail, so the episode ends as env_error instead.
  const hangMs = (options.limits?.wallClockMs ?? DEFAULT_CUA_LIMITS.wallClockMs) + HANG_GRACE_MS;
  let hung = false;
  const guard = setTimeout(() => {
    hung = true;
    void env.close().catch(() => undefined);
  }, hangMs);
  try {
    outcome = await runCuaEpisode({
      env,
      policy,
      task: { id: task.id, instruction: task.instruction, start: episode.start },
      observe: options.observe,
      ...(options.tier ? { tier: options.tier } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.confirm ? { confirm: options.confirm } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      trajectory,
      framesDir: join(out, "frames"),
    });
    egress = env.refusals.map((r) => r.request);
    if (hung)
      outcome = {
        ...outcome,
        detail: `the browser stopped answering; closed after ${hangMs / 1000} s (${outcome.detail})`,
      };
  } finally {
    clearTimeout(guard);
    trajectory.close();
    await settleWithin(env.close(), CLOSE_TIMEOUT_MS);
    await episode.app.close();
  }
  // Graded after the browser is gone: the state is final and nothing can still be in flight.
  const grade = task.grade(episode.app.state);
  const sheet = await writeSheet(task, options, outcome, env.labels);
  const result: CuaTaskResult = {
    task: task.id,
    policy: policy.spec,
    observe: options.observe,
    resolution: `${options.screen.width}x${options.screen.height}`,
    resolved: grade.resolved,
    stop_reason: outcome.stopReason,
    steps: outcome.steps,
    tokens_in: outcome.tokensIn,
    cost_usd: outcome.costUsd ?? null,
    tokens_estimated: outcome.usage.estimated === true,
    grade,
    detail: outcome.detail,
    model_image: `${outcome.model.width}x${outcome.model.height}`,
    blocked: outcome.blocked.map((b) => b.summary),
    egress_refused: egress,
    key_leaks: [...episode.app.state.keyLeaks],
    wall_s: Math.round(outcome.wallMs) / 1000,
    frames: outcome.frames.map((f) => (f.path ? { ...f, path: relative(out, f.path) } : f)),
    contact_sheet: sheet ? relative(out, sheet) : null,
  };
  writeFileSync(join(out, "result.json"), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

async function writeSheet(task: CuaTask, options: CuaTaskRunOptions, outcome: CuaOutcome, labels: string[]) {
  const captions = frameCaptions(outcome.frames, labels);
  const frames = outcome.frames.filter((f) => f.path !== undefined);
  if (frames.length === 0) return undefined;
  // Frame k shows the screen after action k; captioning it with that action reads as "did X, saw this".
  const png = await contactSheet(
    frames.map((f) => ({
      step: f.step,
      png: readFileSync(f.path as string),
      caption: captions.get(f.step) ?? f.action,
    })),
    {
      title: `${task.id} · ${options.observe} · ${options.screen.width}×${options.screen.height} · ${outcome.stopReason}`,
    },
  );
  const path = join(options.out, "contact-sheet.png");
  writeFileSync(path, png);
  return path;
}

function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    work
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}
