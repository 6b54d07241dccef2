/**
 * A scripted computer-use policy: a list of steps whose targets are named, not placed —
 * `{ click: { role: "button", name: "Save" } }` — and resolved against the elements of the frame the
 * loop just captured. A target becomes a click at the element's centre in the MODEL's image, so the
 * loop's mapping back to the screen is exercised exactly as a model's click would be. The policy is
 * privileged: it reads the elements even when the observation shows the model only pixels (the same
 * way a human demonstrator would know the page). Everything around it — environment, loop, gate,
 * stall detector, grader — stays real.
 */
import { estimateTokens, type Message, type ToolCall, type Usage } from "../messages/index.js";
import { PolicyError, type PolicyReply, type PolicyRequest } from "../policies/index.js";
import { clickPoint, inSight } from "./env/serialize.js";
import type { FrameAwarePolicy, PolicyFrame } from "./episode.js";
import { imageTokens, toModel } from "./scaling.js";
import type { MouseButton, UiElement } from "./types.js";

/** An element named by role and accessible name (exact, case- and space-insensitive, or a RegExp). */
export interface CuaTarget {
  role: string;
  name: string | RegExp;
}
/** A point in the model's image. */
export interface CuaPoint {
  x: number;
  y: number;
}
type Where = CuaTarget | CuaPoint;

export type ScriptedCuaStep =
  | { click: Where; button?: MouseButton }
  | { double_click: Where }
  | { move: Where }
  | { drag: { from: Where; to: Where } }
  /** With `into`, the field is clicked first (two turns). */
  | { type: string; into?: CuaTarget }
  | { key: string }
  | { scroll: { dy: number; dx?: number; at?: Where } }
  | { wait: number }
  | { screenshot: true }
  | { done: string }
  /** A raw tool call, e.g. to show the loop an invalid one. */
  | { call: { name: string; input: unknown } };

export interface ScriptedCuaOptions {
  /** On a11y / som observations, click numbered elements with click_element instead of coordinates. */
  useElementNumbers?: boolean;
  /** Waits (0.5 s each) for a target that is not on screen yet before giving up. */
  findRetries?: number;
  /** Price the estimated usage as this model (e.g. "claude-opus-4-7"), so budgets and costs are exercised. */
  priceAs?: string;
}

/** Seconds per wait while a target has not appeared: a page's async render usually lands in one. */
const FIND_WAIT_SECONDS = 0.5;

export class ScriptedCuaPolicy implements FrameAwarePolicy {
  readonly model: string | undefined;
  private frame: PolicyFrame | undefined;
  private cursor = 0;
  private pending: Array<{ name: string; input: unknown }> = [];
  private misses = 0;
  private calls = 0;

  constructor(
    readonly spec: string,
    private readonly steps: readonly ScriptedCuaStep[],
    private readonly options: ScriptedCuaOptions = {},
  ) {
    this.model = options.priceAs;
  }

  seeFrame(frame: PolicyFrame): void {
    this.frame = frame;
  }

  async next(request: PolicyRequest): Promise<PolicyReply> {
    const call = this.pending.shift() ?? this.plan();
    const toolCall: ToolCall = { id: `call_${++this.calls}`, name: call.name, input: call.input };
    const message = { role: "assistant" as const, content: "", toolCalls: [toolCall] };
    return {
      message,
      usage: estimateCuaUsage(request, message.toolCalls),
      model: "scripted",
      finishReason: "tool_use",
    };
  }

  /** The next step as tool calls; the first is returned, the rest wait in `pending`. */
  private plan(): { name: string; input: unknown } {
    const step = this.steps[this.cursor];
    if (!step) {
      throw new PolicyError(
        "script_exhausted",
        `${this.spec}: the script has no more steps (it played ${this.steps.length}) and never called done; end it with { done: "…" }`,
      );
    }
    let calls: Array<{ name: string; input: unknown }>;
    try {
      calls = this.toCalls(step);
    } catch (err) {
      if (!(err instanceof TargetMissing)) throw err;
      if (this.misses++ < (this.options.findRetries ?? 3))
        return { name: "wait", input: { seconds: FIND_WAIT_SECONDS } };
      throw new PolicyError("invalid_response", `${this.spec}: step ${this.cursor + 1}: ${err.message}`);
    }
    this.cursor += 1;
    this.misses = 0;
    const [first, ...rest] = calls;
    this.pending.push(...rest);
    return first as { name: string; input: unknown };
  }

  private toCalls(step: ScriptedCuaStep): Array<{ name: string; input: unknown }> {
    if ("click" in step) {
      const numbered = this.numbered(step.click);
      if (numbered !== undefined && !step.button)
        return [{ name: "click_element", input: { index: numbered } }];
      return [
        {
          name: "click",
          input: { ...this.point(step.click), ...(step.button ? { button: step.button } : {}) },
        },
      ];
    }
    if ("double_click" in step) return [{ name: "double_click", input: this.point(step.double_click) }];
    if ("move" in step) return [{ name: "move", input: this.point(step.move) }];
    if ("drag" in step)
      return [{ name: "drag", input: { from: this.point(step.drag.from), to: this.point(step.drag.to) } }];
    if ("type" in step) {
      const typing = { name: "type", input: { text: step.type } };
      return step.into ? [...this.toCalls({ click: step.into }), typing] : [typing];
    }
    if ("key" in step) return [{ name: "key", input: { keys: step.key } }];
    if ("scroll" in step) {
      const at = step.scroll.at ? this.point(step.scroll.at) : this.middle();
      return [{ name: "scroll", input: { ...at, dx: step.scroll.dx ?? 0, dy: step.scroll.dy } }];
    }
    if ("wait" in step) return [{ name: "wait", input: { seconds: step.wait } }];
    if ("screenshot" in step) return [{ name: "screenshot", input: {} }];
    if ("done" in step) return [{ name: "done", input: { summary: step.done } }];
    return [{ name: step.call.name, input: step.call.input }];
  }

  private current(): PolicyFrame {
    if (!this.frame) throw new Error(`${this.spec}: no frame seen yet; run it inside runCuaEpisode`);
    return this.frame;
  }

  private middle(): CuaPoint {
    const { model } = this.current();
    return { x: Math.floor(model.width / 2), y: Math.floor(model.height / 2) };
  }

  /** A point in the model's image: given, or the target element's centre mapped from the screen. */
  private point(where: Where): CuaPoint {
    if (!("role" in where)) return where;
    const frame = this.current();
    const el = this.find(where);
    const p = clickPoint(el);
    // Clicking where an out-of-sight element's box would be lands on whatever is shown there.
    if (!p)
      throw new TargetMissing(`${el.role} "${el.name}" is out of sight (offscreen): scroll to it first`);
    return toModel(p.x, p.y, frame.model, frame.screen);
  }

  private numbered(where: Where): number | undefined {
    if (!this.options.useElementNumbers || !("role" in where)) return undefined;
    const el = this.find(where);
    return el.index <= this.current().numbered ? el.index : undefined;
  }

  private find(target: CuaTarget): UiElement {
    const { elements } = this.current();
    const match = (el: UiElement) => el.role === target.role && nameMatches(el.name, target.name);
    const found = elements.find((el) => match(el) && inSight(el)) ?? elements.find(match);
    if (found) return found;
    const seen = elements
      .slice(0, 15)
      .map((el) => `${el.role} "${el.name}"`)
      .join(", ");
    throw new TargetMissing(
      `no ${target.role} named ${String(target.name)} among the ${elements.length} elements on screen${seen ? ` (${seen}${elements.length > 15 ? ", …" : ""})` : ""}`,
    );
  }
}

class TargetMissing extends Error {}

function nameMatches(name: string, wanted: string | RegExp): boolean {
  if (wanted instanceof RegExp) return wanted.test(name);
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  return norm(name) === norm(wanted);
}

/**
 * What a vision model would be billed: text at ~4 characters a token, each image by its patch grid.
 * Images are counted from their size, never from their base64 (which would overcount ~500×).
 */
export function estimateCuaUsage(request: PolicyRequest, calls: readonly ToolCall[]): Usage {
  let input =
    estimateTokens(request.system) +
    estimateTokens(request.memory) +
    estimateTokens(JSON.stringify(request.tools));
  for (const m of request.messages) input += messageTokens(m);
  return {
    inputTokens: input,
    outputTokens: estimateTokens(JSON.stringify(calls)),
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    estimated: true,
  };
}

function messageTokens(m: Message): number {
  const images = m.role === "user" || m.role === "tool" ? (m.images ?? []) : [];
  const text = m.role === "assistant" ? m.content + JSON.stringify(m.toolCalls) : m.content;
  return estimateTokens(text) + images.reduce((n, i) => n + imageTokens(i), 0);
}
