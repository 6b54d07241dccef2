/**
 * A computer-use episode on the one agent loop (src/loop: runAgent): the actions are tools of the
 * shared registry (./tools.ts), the confirmation gate is its permission hook (./gate.ts), and the
 * screen is the loop's observer (./observer.ts). This file only puts those parts together, writes the
 * run's first and last records, and adds what the observer and the gate kept to the outcome.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Ledger } from "../ledger/index.js";
import { DEFAULT_CUA_LIMITS, runAgent, runEndRecord, type StopReason } from "../loop/index.js";
import { ZERO_USAGE } from "../messages/index.js";
import { ToolRegistry } from "../tools/index.js";
import type { TrajectorySink } from "../trajectory/index.js";
import { describeHeld, refuseRequests } from "./env/index.js";
import { type CuaEpisode, type CuaOutcome, isFrameAware } from "./episode.js";
import { confirmationGate, DESTRUCTIVE_VOCABULARY, denyAll, type RequestRefusal } from "./gate.js";
import { parseScreenshotHistory } from "./history.js";
import { ScreenObserver } from "./observer.js";
import { DECODE_ONCE_CODEC, Perceiver } from "./perceive.js";
import { cuaRunStart } from "./records.js";
import { imageTokens, modelImageSize, TIERS, type TierName, type VisionTier } from "./scaling.js";
import { type CuaToolContext, cuaTools } from "./tools.js";
import type { Size } from "./types.js";

export type { CuaEpisode } from "./episode.js";

export const CUA_SYSTEM_PROMPT = readFileSync(new URL("./system-prompt.txt", import.meta.url), "utf8");

/**
 * Pause after an action before the next capture, so a navigation or a menu animation lands in the
 * frame the model sees (0.4 s is common for desktop apps; loopback pages settle faster). `wait` is the
 * model's tool for anything longer.
 */
export const DEFAULT_SETTLE_MS = 200;

/** Output tokens per reply: one tool call and a sentence of thought need a few hundred. */
export const CUA_MAX_OUTPUT_TOKENS = 1024;

const NO_TOOL_CALL =
  "error: your reply called no tool. Call exactly one tool each turn; call done when finished.";

const NO_TRAJECTORY: TrajectorySink = { write: () => undefined };

export async function runCuaEpisode(ep: CuaEpisode): Promise<CuaOutcome> {
  const tier = typeof ep.tier === "object" ? ep.tier : TIERS[ep.tier ?? "standard"];
  if (ep.modelSize) checkFits(ep.modelSize, tier);
  const modelSizeFor = (screen: Size) => ep.modelSize ?? modelImageSize(screen, tier);
  const limits = { ...DEFAULT_CUA_LIMITS, ...ep.limits };
  const ledger = ep.ledger ?? new Ledger();
  const trajectory = ep.trajectory ?? NO_TRAJECTORY;
  const history = typeof ep.history === "object" ? ep.history : parseScreenshotHistory(ep.history ?? "all");
  const perceiver = new Perceiver({
    env: ep.env,
    observe: ep.observe,
    modelSizeFor,
    codec: ep.codec ?? DECODE_ONCE_CODEC,
    ...(ep.framesDir ? { framesDir: ep.framesDir } : {}),
  });
  const gate = confirmationGate(
    ep.confirm ?? denyAll,
    ep.vocabulary ?? DESTRUCTIVE_VOCABULARY,
    ep.confirmUnreadable ?? denyAll,
  );
  // The consequence gate's approver, before the first page loads (the observer's reset).
  ep.env.approveRequests?.(ep.confirmRequest ?? refuseRequests);
  const tools = new ToolRegistry<CuaToolContext>(
    cuaTools({ elements: ep.observe === "a11y" || ep.observe === "som" }),
  );
  const context: CuaToolContext = {
    env: ep.env,
    // Replaced by the observer's first capture before the model is asked anything.
    frame: { screen: ep.env.screen, model: modelSizeFor(ep.env.screen), elements: [], numbered: 0 },
    snapshot: () => perceiver.snapshot(),
    settleMs: ep.settleMs ?? DEFAULT_SETTLE_MS,
    executed: [],
    permission: gate,
    ...(ep.signal ? { signal: ep.signal } : {}),
  };
  const { policy } = ep;
  const observer = new ScreenObserver({
    env: ep.env,
    observe: ep.observe,
    perceiver,
    context,
    tools,
    gate,
    ...(ep.reset !== false ? { start: ep.task.start } : {}),
    ...(isFrameAware(policy) ? { seeFrame: (frame) => policy.seeFrame(frame) } : {}),
    ...(ep.repeat ? { repeat: ep.repeat } : {}),
    ...(ep.afterStep ? { afterStep: ep.afterStep } : {}),
  });
  const system = ep.system ?? CUA_SYSTEM_PROMPT;
  // Written before anything can fail, so every trajectory that has a run_end has its run_start.
  trajectory.write(
    cuaRunStart({
      runId: ep.runId ?? randomUUID(),
      task: ep.task.id,
      policy: policy.spec,
      observe: ep.observe,
      history: history.name,
      limits,
      system,
      tools: tools.specs(),
      screen: ep.env.screen,
      model: modelSizeFor(ep.env.screen),
      tier: tier.name,
    }),
  );
  const outcome = await runAgent({
    policy,
    tools,
    context,
    history,
    limits,
    ledger,
    trajectory,
    system,
    memory: "",
    task: ep.task.instruction,
    maxOutputTokens: ep.maxOutputTokens ?? CUA_MAX_OUTPUT_TOKENS,
    observer,
    maxCallsPerTurn: 1,
    noToolCall: NO_TOOL_CALL,
    ...(ep.signal ? { signal: ep.signal } : {}),
  });
  const screen = observer.last?.capture.size ?? ep.env.screen;
  const note = perceiver.elementsNote;
  const episode: CuaOutcome = {
    ...outcome,
    detail: note ? `${outcome.detail} (note: ${note})` : outcome.detail,
    screen,
    model: observer.last?.model ?? modelSizeFor(screen),
    frames: observer.frames,
    blocked: [...gate.blocked, ...refusedRequests(ep.env)],
  };
  trajectory.write(runEndRecord(episode));
  return episode;
}

/**
 * The outcome of an episode that never reached its first step: the task could not be opened (its
 * file's setup or instruction failed in the page, its app never answered), the page misbehaved while
 * loading, or the browser did not start. No model was asked anything; `stop` says why.
 */
export function notStarted(
  stop: { reason: StopReason; detail: string },
  screen: Size,
  tier: TierName | VisionTier = "standard",
  wallMs = 0,
): CuaOutcome {
  return {
    stopReason: stop.reason,
    detail: stop.detail,
    steps: 0,
    wallMs,
    usage: { ...ZERO_USAGE },
    costUsd: 0,
    cacheBusts: 0,
    overheadMs: [],
    screen,
    model: modelImageSize(screen, typeof tier === "object" ? tier : TIERS[tier]),
    frames: [],
    blocked: [],
  };
}

/** The page's state-changing requests this episode that were refused, as the run lists them. */
export function refusedRequests(env: CuaEpisode["env"]): RequestRefusal[] {
  return (env.heldRequests ?? [])
    .filter((r) => r.decision === "refused")
    .map((request) => ({ request, summary: `request ${describeHeld(request)} refused` }));
}

function checkFits(size: Size, tier: VisionTier): void {
  if (imageTokens(size) <= tier.maxTokens && Math.max(size.width, size.height) <= tier.maxLongEdge) return;
  throw new Error(
    `model size ${size.width}×${size.height} does not fit the ${tier.name} tier (${tier.maxLongEdge} px, ` +
      `${tier.maxTokens} tokens): the provider would shrink it again and clicks would miss — pick a smaller size or the high tier`,
  );
}
