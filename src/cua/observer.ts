/**
 * The screen as the agent loop's observer: one capture before the first turn and after every turn,
 * and what follows from it — the image and screen text the model reads, the stall and repeat
 * detectors, the frames kept for contact sheets, a frame-aware policy's view, and the `cua` detail of
 * each turn's record. The loop itself knows none of this (src/loop: RunObserver).
 */
import type { Observation, RunObserver, StopReason, TurnObservation } from "../loop/index.js";
import type { ToolCall } from "../messages/index.js";
import { isFormatError, type ToolRegistry, type ToolResult } from "../tools/index.js";
import type { ActionRecord } from "../trajectory/index.js";
import { CUA_TOOL_NAMES, type CuaToolName, describeAction, toAction } from "./actions.js";
import { describeHeld } from "./env/index.js";
import type { FrameRecord, PolicyFrame } from "./episode.js";
import type { ConfirmationGate } from "./gate.js";
import { joinParts, screenText } from "./observation.js";
import type { Perceiver, SeenFrame } from "./perceive.js";
import type { CuaTurnDetail } from "./records.js";
import { elementsSignature, perceptualDelta, RepeatDetector, StallDetector } from "./stall.js";
import type { CuaToolContext } from "./tools.js";
import type { CuaAction, Environment, EnvironmentStart, ObserveKind } from "./types.js";

export interface ScreenObserverOptions {
  env: Environment;
  observe: ObserveKind;
  perceiver: Perceiver;
  /** The tools' context: its frame is replaced after each capture. */
  context: CuaToolContext;
  /** To read each call as the action it asked for (describe it, count repeats). */
  tools: ToolRegistry<CuaToolContext>;
  gate: ConfirmationGate;
  /** Reset the environment to this start before the first capture (absent: use it as it is). */
  start?: EnvironmentStart;
  /** A privileged policy's view of each frame (scripted policies resolve targets with it). */
  seeFrame?: (frame: PolicyFrame) => void;
  /** Same-action detector thresholds (default warn at 3, halt at 5). */
  repeat?: { warnAt: number; haltAt: number };
  /** The task's own check after each step's capture (a task file's done_js); a stop ends the run. */
  afterStep?: StopCheck;
}

/** A task's check after step `step`: undefined to go on, or why the episode ends now. */
export type StopCheck = (step: number) => Promise<{ reason: StopReason; detail: string } | undefined>;

export class ScreenObserver implements RunObserver {
  readonly environment: string;
  /** One per capture, the first at step 0 ("start"). */
  readonly frames: FrameRecord[] = [];
  private readonly stall = new StallDetector();
  private readonly repeat: RepeatDetector;
  private shown: SeenFrame | undefined;
  private blockedSeen = 0;
  private requestsSeen = 0;

  constructor(private readonly o: ScreenObserverOptions) {
    this.environment = o.env.kind;
    this.repeat = new RepeatDetector(o.repeat?.warnAt, o.repeat?.haltAt);
  }

  /** The frame the model saw last (undefined until the first capture). */
  get last(): SeenFrame | undefined {
    return this.shown;
  }

  async begin(): Promise<Observation> {
    if (this.o.start) await this.o.env.reset(this.o.start);
    const frame = await this.see(0, "start");
    const { width, height } = frame.model;
    return {
      text: joinParts(
        `The screenshots are ${width}×${height} pixels; give every coordinate in those pixels.`,
        frame.text,
      ),
      images: [frame.image],
    };
  }

  async afterTurn(turn: {
    step: number;
    actions: readonly ActionRecord[];
    results: readonly ToolResult[];
  }): Promise<TurnObservation> {
    const ctx = this.o.context;
    if (ctx.envFailure !== undefined) throw ctx.envFailure;
    const screenAction = ctx.executed.splice(0)[0];
    const blocked = this.o.gate.blocked.slice(this.blockedSeen)[0];
    this.blockedSeen = this.o.gate.blocked.length;
    const refused = this.newRefusals();
    const [first] = turn.actions;
    const previous = this.shown;
    // No call, or `done`: nothing changed that the model will look at, so nothing is captured.
    if (!first || !previous || turn.results.some((r) => r.submitted)) return { record: { cua: detail({}) } };

    const asked = this.asked(first.call, turn.results[0]);
    const frame = await this.see(turn.step, asked ? describeAction(asked) : `invalid ${first.call.name}`);
    const stall = this.stall.observe(
      perceptualDelta(previous.thumb, frame.thumb),
      stateChanged(previous, frame),
    );
    const repeat = asked ? this.repeat.observe(asked, stall.changed) : undefined;
    const warnings = [stall.warning, repeat?.warning, refusalNotice(refused)].filter(
      (w): w is string => w !== undefined,
    );
    const record = this.frames.at(-1);
    if (record) {
      record.delta = stall.delta;
      record.stalls = stall.stalls;
      const note = [blocked && `blocked ${blocked.summary}`, ...warnings].filter(Boolean).join(" | ");
      if (note) record.note = note;
    }
    let stop: { reason: StopReason; detail: string } | undefined;
    if (stall.halt)
      stop = { reason: "stalled", detail: `no visible change across ${stall.stalls} steps in a row` };
    else if (repeat?.halt && asked) {
      stop = {
        reason: "repeated",
        detail: `${describeAction(asked)} asked for ${repeat.count} times in a row`,
      };
    }
    stop ??= await this.o.afterStep?.(turn.step);
    return {
      text: joinParts(...warnings, frame.text),
      images: [frame.image],
      envMs: frame.envMs,
      record: {
        cua: detail({
          frame: frame.image.ref ?? null,
          delta: stall.delta,
          stalls: stall.stalls,
          repeats: repeat?.count ?? 0,
          screen_action: screenAction ?? null,
          blocked: blocked?.summary ?? null,
          requests_refused: refused,
          warnings,
          capture_ms: Math.round(frame.envMs),
        }),
      },
      ...(stop ? { stop } : {}),
    };
  }

  /** Requests refused since the last turn (the consequence gate), one line each. */
  private newRefusals(): string[] {
    const held = this.o.env.heldRequests ?? [];
    const fresh = held.slice(this.requestsSeen);
    this.requestsSeen = held.length;
    return fresh.filter((r) => r.decision === "refused").map(describeHeld);
  }

  /** The call as the action it asked for; undefined when the model used the interface wrongly. */
  private asked(call: ToolCall, result: ToolResult | undefined): CuaAction | undefined {
    if (!result || isFormatError(result) || !CUA_TOOL_NAMES.includes(call.name as CuaToolName))
      return undefined;
    const checked = this.o.tools.validate(call);
    return checked.ok ? toAction(call.name as CuaToolName, checked.input) : undefined;
  }

  /** Capture the frame after `step`'s action, show it to the tools and a frame-aware policy, keep its record. */
  private async see(step: number, action: string): Promise<SeenFrame> {
    const frame = await this.o.perceiver.take(step);
    const seen: SeenFrame = { ...frame, ...screenText(frame.capture, this.o.observe, frame.model) };
    const elements = frame.capture.elements ?? [];
    this.o.context.frame = {
      screen: frame.capture.size,
      model: frame.model,
      elements,
      numbered: seen.numbered,
      ...(frame.unchecked ? { unchecked: frame.unchecked } : {}),
    };
    this.o.seeFrame?.({
      step,
      observe: this.o.observe,
      screen: frame.capture.size,
      model: frame.model,
      elements,
      numbered: seen.numbered,
    });
    this.frames.push({ step, path: frame.path, action, delta: undefined, stalls: 0 });
    this.shown = seen;
    return seen;
  }
}

/** True when both frames list elements and their roles, names or states differ (see StallDetector). */
function stateChanged(previous: SeenFrame, current: SeenFrame): boolean {
  const [a, b] = [previous.capture.elements, current.capture.elements];
  return a !== undefined && b !== undefined && elementsSignature(a) !== elementsSignature(b);
}

/** What the model is told when the page's requests were refused: nothing reached the server. */
function refusalNotice(refused: readonly string[]): string | undefined {
  if (refused.length === 0) return undefined;
  const shown = refused.slice(0, 3).join("; ");
  const more = refused.length > 3 ? ` and ${refused.length - 3} more` : "";
  return `The page's request ${shown}${more} was refused: it would change state on a server, no task rule allows it and nobody approved it, so nothing reached the server.`;
}

function detail(d: Partial<CuaTurnDetail>): CuaTurnDetail {
  return {
    frame: null,
    delta: null,
    stalls: 0,
    repeats: 0,
    screen_action: null,
    blocked: null,
    requests_refused: [],
    warnings: [],
    capture_ms: null,
    ...d,
  };
}
