/**
 * Computer-use tasks as a run kind: a fresh app and browser → the computer-use loop → the grade on the
 * app's final state, then what a person reads (frames/, contact-sheet.png beside result.json).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  type BrowserSource,
  builtinStage,
  type ConfirmHook,
  type CuaOutcome,
  type CuaStage,
  type CuaTask,
  contactSheet,
  createEnvironment,
  cuaScriptedPolicy,
  type DownloadRecord,
  type FrameRecord,
  frameCaptions,
  type Grade,
  type HeldRequest,
  isTaskFile,
  LabelledEnvironment,
  notStarted,
  type ObserveKind,
  type OpenStage,
  type PageEvents,
  type RequestHook,
  refuseRequests,
  runCuaEpisode,
  type Size,
  startFailure,
  type TaskFile,
  type TierName,
  taskFileScripted,
  taskFileStage,
} from "../cua/index.js";
import { DEFAULT_CUA_LIMITS, type Limits } from "../loop/index.js";
import type { ResultCore } from "./result.js";
import { type KindEnd, loopPolicy, type RunnableTask, type SharedRun } from "./root.js";

/** Past the episode's wall clock, how long to wait for a step in flight before closing the browser. */
const HANG_GRACE_MS = 15_000;
/** Closing a browser takes well under a second; one stuck in a close must not hold the run. */
const CLOSE_TIMEOUT_MS = 10_000;

export interface CuaOptions {
  observe: ObserveKind;
  /** The screen the browser renders and captures; the model's image follows the tier. */
  screen: Size;
  tier?: TierName;
  /** Screenshots kept in the conversation: "all" (default), "last:<k>", "batch:<k>:<every>". */
  history?: string;
  limits?: Partial<Limits>;
  /** Asked before a destructive click; default: deny (headless). */
  confirm?: ConfirmHook;
  /** Asked about a state-changing request no task rule allows; default: refuse (headless). */
  confirmRequest?: RequestHook;
  /** Where the page runs: a headless browser (default) or Chromium on an X11 desktop. */
  environment?: "browser" | "x11";
  /** Where the browser comes from: a SharedBrowser a folder run keeps (a fresh context each); default its own. */
  browsers?: BrowserSource;
}

/** Where an episode's time went, in seconds (result.json's `timing`). */
export interface CuaTiming {
  /** Getting a browser: the box and Chromium started, or only a fresh context in a running one. */
  browser_s: number;
  /** Opening the task, less the browser: the app started, the first page loaded, setup and instruction read. */
  open_s: number;
  /** The steps: the model's calls, the actions, the captures. */
  loop_s: number;
  /** The final grade read, the browser and app closed, the contact sheet drawn. */
  end_s: number;
  /** True when the browser was one kept from an earlier episode of the same run. */
  browser_reused: boolean;
}

/** result.json of a computer-use episode: the common fields, then what explains them. */
export type CuaRunResult = ResultCore<"cua", Grade> & {
  observe: ObserveKind;
  /** The screen, `WIDTHxHEIGHT`. */
  resolution: string;
  /** The image the model saw, `WIDTHxHEIGHT`. */
  model_image: string;
  /**
   * What was refused, one line each: destructive clicks the confirmation gate refused, and
   * state-changing requests the page made that no rule allowed (method, URL, body size, cause).
   */
  blocked: string[];
  /** The refused requests of `blocked`, as data. */
  requests_refused: HeldRequest[];
  /** Requests the egress allowlist refused ("CONNECT host:443", "GET http://…"). */
  egress_refused: string[];
  /** Why the browser ran with less than its box (or on the host, where bwrap cannot run); null when boxed. */
  sandbox_warning: string | null;
  /** Where the app saw the secret API key arrive (empty = it never left). */
  key_leaks: string[];
  /** Files the page downloaded, saved under downloads/ in the run folder (path relative to it). */
  downloads: DownloadRecord[];
  /** What the page did: dialogs dismissed, windows opened and closed, downloads cancelled, a crash. */
  page_events: PageEvents | null;
  frames: FrameRecord[];
  contact_sheet: string | null;
  timing: CuaTiming;
};

/** A built-in task (graded on its app's state) or a task file (graded in the page): one run path. */
export function cuaRun(task: CuaTask | TaskFile, options: CuaOptions): RunnableTask<CuaRunResult> {
  const file = isTaskFile(task);
  return {
    kind: "cua",
    id: task.id,
    takesWorkflow: false,
    scripted: (steps) => (file ? taskFileScripted(task, steps) : cuaScriptedPolicy(task, steps)),
    execute: (run) => executeCua(file ? taskFileStage(task) : builtinStage(task), options, run),
  };
}

async function executeCua(
  stage: CuaStage,
  options: CuaOptions,
  run: SharedRun,
): Promise<KindEnd<CuaRunResult>> {
  // Downloads go into the run's folder, never anywhere else (without one, they go with the browser).
  const downloadsDir = run.out ? join(run.out, "downloads") : undefined;
  const env = new LabelledEnvironment(
    createEnvironment(
      options.environment ?? "browser",
      options.screen,
      downloadsDir ? { downloadsDir } : {},
      options.browsers,
    ),
  );
  // Before the stage loads its first page: a task file's page may make requests as it loads.
  env.approveRequests(options.confirmRequest ?? refuseRequests);
  let episode: OpenStage | undefined;
  let outcome: CuaOutcome;
  let egress: string[] = [];
  let sandboxWarning: string | undefined;
  // The loop checks its wall clock between steps; a browser call that never returns would outlive
  // it. Closing the environment makes that call fail, so the episode ends as env_error instead.
  const hangMs = (options.limits?.wallClockMs ?? DEFAULT_CUA_LIMITS.wallClockMs) + HANG_GRACE_MS;
  let hung = false;
  const guard = setTimeout(() => {
    hung = true;
    void env.close().catch(() => undefined);
  }, hangMs);
  const clock = { start: performance.now(), opened: 0, looped: 0 };
  try {
    // One task that cannot start is its own row (task_error, env_error), never the end of a folder run.
    const opened = await stage.open(env).then(
      (open) => ({ open }),
      (err: unknown) => ({ stop: startFailure(err) }),
    );
    clock.opened = performance.now();
    if ("stop" in opened)
      outcome = notStarted(opened.stop, options.screen, options.tier, clock.opened - clock.start);
    else {
      episode = opened.open;
      outcome = await loop(episode);
    }
    sandboxWarning = env.sandboxWarning;
    if (hung)
      outcome = {
        ...outcome,
        detail: `the browser stopped answering; closed after ${hangMs / 1000} s (${outcome.detail})`,
      };
  } finally {
    clearTimeout(guard);
    await settleWithin(env.close(), CLOSE_TIMEOUT_MS);
    await episode?.close();
  }

  async function loop(episode: OpenStage): Promise<CuaOutcome> {
    const outcome = await runCuaEpisode({
      env,
      policy: loopPolicy(run),
      task: episode.task,
      observe: options.observe,
      reset: !episode.loaded,
      ...(episode.afterStep ? { afterStep: episode.afterStep } : {}),
      ledger: run.ledger,
      trajectory: run.trajectory,
      runId: run.runId,
      ...(options.tier ? { tier: options.tier } : {}),
      ...(options.history ? { history: options.history } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.confirm ? { confirm: options.confirm } : {}),
      ...(options.confirmRequest ? { confirmRequest: options.confirmRequest } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.out ? { framesDir: join(run.out, "frames") } : {}),
    });
    clock.looped = performance.now();
    egress = env.refusals.map((r) => r.request);
    await episode.beforeClose({ pageMisbehaved: outcome.stopReason === "page_misbehaved" });
    return outcome;
  }
  // Graded after the browser is gone: the state is final and nothing can still be in flight.
  const grade: Grade = episode?.grade() ?? {
    resolved: false,
    detail: `not graded: the episode never started (${outcome.stopReason})`,
  };
  const sheet = run.out ? await writeSheet(stage.id, options, outcome, env.labels, run.out) : undefined;
  const out = run.out;
  const startup = env.lastStartup;
  const seconds = (ms: number) => Math.round(ms) / 1000;
  const browserMs = episode ? (startup?.browserMs ?? 0) : 0;
  const timing: CuaTiming = {
    browser_s: seconds(browserMs),
    open_s: seconds(Math.max(0, clock.opened - clock.start - browserMs)),
    loop_s: seconds(clock.looped > 0 ? clock.looped - clock.opened : 0),
    end_s: seconds(performance.now() - (clock.looped || clock.opened)),
    browser_reused: episode !== undefined && startup?.launched === false,
  };
  return {
    loop: outcome,
    grade,
    extras: {
      observe: options.observe,
      resolution: `${options.screen.width}x${options.screen.height}`,
      model_image: `${outcome.model.width}x${outcome.model.height}`,
      blocked: outcome.blocked.map((b) => b.summary),
      requests_refused: outcome.blocked.flatMap((b) => ("request" in b ? [b.request] : [])),
      egress_refused: egress,
      sandbox_warning: sandboxWarning ?? null,
      key_leaks: episode?.keyLeaks() ?? [],
      downloads: (env.downloads ?? []).map((d) =>
        d.path && out ? { ...d, path: relative(out, d.path) } : d,
      ),
      page_events: env.pageEvents ?? null,
      frames: outcome.frames.map((f) => (f.path && out ? { ...f, path: relative(out, f.path) } : f)),
      contact_sheet: sheet && out ? relative(out, sheet) : null,
      timing,
    },
  };
}

async function writeSheet(
  id: string,
  options: CuaOptions,
  outcome: CuaOutcome,
  labels: string[],
  out: string,
): Promise<string | undefined> {
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
      title: `${id} · ${options.observe} · ${options.screen.width}×${options.screen.height} · ${outcome.stopReason}`,
    },
  );
  const path = join(out, "contact-sheet.png");
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
