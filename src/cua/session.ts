/**
 * The plumbing of one computer-use episode, so the loop itself stays one screen: options resolved to
 * parts, the limits, the model request with its ledger entry, the conversation, the trajectory
 * records and the outcome.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { firstChange } from "../history/index.js";
import { Ledger } from "../ledger/index.js";
import type { Message, ToolMessage, Usage } from "../messages/index.js";
import { PolicyError } from "../policies/index.js";
import type { ActContext } from "./act.js";
import { cuaToolSpecs } from "./actions.js";
import {
  type CuaEpisode,
  type CuaLimits,
  type CuaOutcome,
  type CuaStopReason,
  DEFAULT_CUA_LIMITS,
  type FrameRecord,
  isFrameAware,
} from "./episode.js";
import { type ConfirmHook, type ConfirmRequest, denyAll } from "./gate.js";
import { parseScreenshotHistory, type ScreenshotHistory } from "./history.js";
import { joinParts, screenText } from "./observation.js";
import { DECODE_ONCE_CODEC, type Frame, Perceiver, type SeenFrame } from "./perceive.js";
import { cuaRunEnd, cuaRunStart, cuaTurnRecord, type Turn, type TurnDetail } from "./records.js";
import { imageTokens, modelImageSize, TIERS, type VisionTier } from "./scaling.js";
import { elementsSignature, RepeatDetector, StallDetector } from "./stall.js";
import type { Size } from "./types.js";

export const CUA_SYSTEM_PROMPT = readFileSync(new URL("./system-prompt.txt", import.meta.url), "utf8");

/**
 * Pause after an action before the next capture, so a navigation or a menu animation lands in the
 * frame the model sees (seed 002 uses 0.4 s; loopback pages settle faster). `wait` is the model's
 * tool for anything longer.
 */
export const DEFAULT_SETTLE_MS = 200;

/** Output tokens per reply: one tool call and a sentence of thought need a few hundred. */
export const CUA_MAX_OUTPUT_TOKENS = 1024;

const ONE_ACTION = "not run: one action per turn, and only the first call of your reply was run.";

export class EpisodeSession {
  readonly messages: Message[] = [];
  readonly stall = new StallDetector();
  readonly repeat: RepeatDetector;
  private readonly tier: VisionTier;
  private readonly limits: CuaLimits;
  private readonly ledger: Ledger;
  private readonly history: ScreenshotHistory;
  private readonly perceiver: Perceiver;
  private readonly system: string;
  private readonly tools;
  private readonly confirm: ConfirmHook;
  private readonly runId: string;
  private readonly started = performance.now();
  private readonly frames: FrameRecord[] = [];
  private readonly blocked: ConfirmRequest[] = [];
  private readonly overheadMs: number[] = [];
  private previousRequest: Message[] = [];
  private steps = 0;
  private last: SeenFrame | undefined;

  constructor(private readonly ep: CuaEpisode) {
    this.tier = typeof ep.tier === "object" ? ep.tier : TIERS[ep.tier ?? "standard"];
    if (ep.modelSize) checkFits(ep.modelSize, this.tier);
    this.limits = { ...DEFAULT_CUA_LIMITS, ...ep.limits };
    this.ledger = ep.ledger ?? new Ledger();
    this.history = typeof ep.history === "object" ? ep.history : parseScreenshotHistory(ep.history ?? "all");
    this.perceiver = new Perceiver({
      env: ep.env,
      observe: ep.observe,
      modelSizeFor: (screen) => this.modelSizeFor(screen),
      codec: ep.codec ?? DECODE_ONCE_CODEC,
      ...(ep.framesDir ? { framesDir: ep.framesDir } : {}),
    });
    this.repeat = new RepeatDetector(ep.repeat?.warnAt, ep.repeat?.haltAt);
    this.tools = cuaToolSpecs({ elements: ep.observe === "a11y" || ep.observe === "som" });
    this.system = ep.system ?? CUA_SYSTEM_PROMPT;
    this.confirm = ep.confirm ?? denyAll;
    this.runId = ep.runId ?? randomUUID();
    this.writeStart();
  }

  private modelSizeFor(screen: Size): Size {
    return this.ep.modelSize ?? modelImageSize(screen, this.tier);
  }

  /** Capture the frame after `step`'s action, tell a frame-aware policy, keep the frame record. */
  async see(step: number, action: string): Promise<SeenFrame> {
    const frame = await this.perceiver.take(step);
    const shown = screenText(frame.capture, this.ep.observe, frame.model);
    const seen: SeenFrame = { ...frame, ...shown };
    if (isFrameAware(this.ep.policy)) {
      this.ep.policy.seeFrame({
        step,
        observe: this.ep.observe,
        screen: frame.capture.size,
        model: frame.model,
        elements: frame.capture.elements ?? [],
        numbered: shown.numbered,
      });
    }
    this.frames.push({ step, path: frame.path, action, delta: undefined, stalls: 0 });
    this.last = seen;
    return seen;
  }

  taskText(frame: Frame): string {
    return joinParts(
      this.ep.task.instruction,
      `The screenshots are ${frame.model.width}×${frame.model.height} pixels; give every coordinate in those pixels.`,
    );
  }

  limitReached(): { reason: CuaStopReason; detail: string } | undefined {
    const { maxSteps, wallClockMs, budgetUsd } = this.limits;
    const elapsedMs = performance.now() - this.started;
    if (this.ep.signal?.aborted) return { reason: "aborted", detail: "the episode was interrupted" };
    if (this.steps >= maxSteps)
      return { reason: "step_limit", detail: `reached the step cap of ${maxSteps}` };
    if (elapsedMs >= wallClockMs) {
      const s = (elapsedMs / 1000).toFixed(1);
      return { reason: "time_limit", detail: `ran for ${s} s, the limit is ${wallClockMs / 1000} s` };
    }
    if (budgetUsd !== undefined && this.ledger.knownCostUsd >= budgetUsd) {
      const spent = this.ledger.knownCostUsd.toFixed(4);
      return { reason: "budget", detail: `spent $${spent} of the $${budgetUsd} budget` };
    }
    return undefined;
  }

  /** One model request: the history's view of the conversation, the reply, its ledger entry. */
  async ask(): Promise<Turn> {
    const started = performance.now();
    const request = this.history.apply(this.messages, this.steps);
    const reply = await this.ep.policy.next(
      {
        system: this.system,
        tools: this.tools,
        memory: "",
        messages: request,
        maxOutputTokens: this.ep.maxOutputTokens ?? CUA_MAX_OUTPUT_TOKENS,
      },
      this.ep.signal,
    );
    const modelMs = performance.now() - started;
    this.steps += 1;
    // A batch trim rewrites the prefix on purpose; the ledger then expects the cache miss.
    const shared = firstChange(this.previousRequest, request);
    const appendOnly = shared >= this.previousRequest.length;
    const entry = this.ledger.record({
      model: this.ep.policy.model ?? reply.model,
      usage: reply.usage,
      latencyMs: modelMs,
      appendOnly,
    });
    this.messages.push(reply.message);
    const turn: Turn = {
      step: this.steps,
      request,
      reply,
      cost: entry.costUsd,
      started,
      modelMs,
      firstChange: shared,
    };
    this.previousRequest = request;
    return turn;
  }

  /** True when both frames list elements and their roles, names or states differ (see StallDetector). */
  stateChanged(previous: SeenFrame, current: SeenFrame): boolean {
    const [a, b] = [previous.capture.elements, current.capture.elements];
    return a !== undefined && b !== undefined && elementsSignature(a) !== elementsSignature(b);
  }

  actContext(frame: SeenFrame): ActContext {
    return {
      env: this.ep.env,
      screen: frame.capture.size,
      model: frame.model,
      elements: frame.capture.elements ?? [],
      numbered: frame.numbered,
      ...(frame.unchecked ? { unchecked: frame.unchecked } : {}),
      confirm: this.confirm,
      ...(this.ep.vocabulary ? { vocabulary: this.ep.vocabulary } : {}),
      snapshot: () => this.perceiver.snapshot(),
      settleMs: this.ep.settleMs ?? DEFAULT_SETTLE_MS,
    };
  }

  notRun(toolCallId: string): ToolMessage {
    return { role: "tool", toolCallId, content: ONE_ACTION, isError: true };
  }

  /** Append the turn's observation messages and write its trajectory record. */
  answer(turn: Turn, observations: Message[], detail: TurnDetail = {}): void {
    this.messages.push(...observations);
    const { result, frame, stall } = detail;
    const envMs = (result?.envMs ?? 0) + (frame?.envMs ?? 0);
    const overhead = Math.max(0, performance.now() - turn.started - turn.modelMs - envMs);
    this.overheadMs.push(overhead);
    const record = this.frames.at(-1);
    if (frame && record && stall) {
      record.delta = stall.delta;
      record.stalls = stall.stalls;
      const notes = [result?.blocked && `blocked ${result.blocked.summary}`, ...(detail.warnings ?? [])];
      const note = notes.filter((n): n is string => typeof n === "string" && n !== "").join(" | ");
      if (note) record.note = note;
    }
    if (result?.blocked) this.blocked.push(result.blocked);
    const turnRecord = cuaTurnRecord(turn, observations, detail, { envMs, overheadMs: overhead });
    this.ep.trajectory?.write(turnRecord);
  }

  /** Written before anything can fail, so every trajectory that has a run_end has its run_start. */
  private writeStart(): void {
    this.ep.trajectory?.write(
      cuaRunStart({
        runId: this.runId,
        task: this.ep.task.id,
        policy: this.ep.policy.spec,
        observe: this.ep.observe,
        history: this.history.name,
        limits: this.limits,
        system: this.system,
        tools: this.tools,
        screen: this.ep.env.screen,
        model: this.modelSizeFor(this.ep.env.screen),
        tier: this.tier.name,
      }),
    );
  }

  /** How an exception ends the episode: the caller's abort, the policy, or the environment. */
  fail(err: unknown): CuaOutcome {
    if (this.ep.signal?.aborted) return this.end("aborted", "the episode was interrupted");
    if (err instanceof PolicyError) return this.end("policy_error", err.message);
    const message = err instanceof Error ? err.message : String(err);
    return this.end("env_error", `${this.ep.env.kind} environment failed: ${message}`);
  }

  end(reason: CuaStopReason, detail: string, summary?: string): CuaOutcome {
    const t = this.ledger.totals;
    const usage: Usage = {
      inputTokens: t.inputTokens,
      outputTokens: t.outputTokens,
      cacheReadTokens: t.cacheReadTokens,
      cacheWriteTokens: t.cacheWriteTokens,
      ...(t.estimated ? { estimated: true } : {}),
    };
    const screen = this.last?.capture.size ?? this.ep.env.screen;
    const note = this.perceiver.elementsNote;
    const outcome: CuaOutcome = {
      stopReason: reason,
      detail: note ? `${detail} (note: ${note})` : detail,
      ...(summary !== undefined ? { summary } : {}),
      steps: this.steps,
      usage,
      tokensIn: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
      costUsd: this.ledger.totalCostUsd,
      wallMs: performance.now() - this.started,
      overheadMs: this.overheadMs,
      screen,
      model: this.last?.model ?? this.modelSizeFor(screen),
      frames: this.frames,
      blocked: this.blocked,
    };
    this.ep.trajectory?.write(cuaRunEnd(outcome, this.ledger.cacheBusts));
    return outcome;
  }
}

function checkFits(size: Size, tier: VisionTier): void {
  if (imageTokens(size) <= tier.maxTokens && Math.max(size.width, size.height) <= tier.maxLongEdge) return;
  throw new Error(
    `model size ${size.width}×${size.height} does not fit the ${tier.name} tier (${tier.maxLongEdge} px, ` +
      `${tier.maxTokens} tokens): the provider would shrink it again and clicks would miss — pick a smaller size or the high tier`,
  );
}
