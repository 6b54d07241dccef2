/**
 * Noticing that progress stopped. A stalled computer-use run looks like steady work from inside (the
 * model keeps narrating), so the harness compares what the screen LOOKS like between steps: a byte
 * hash changes with every cursor blink and never fires; a perceptual delta on a small greyscale
 * thumbnail ignores that noise and still sees any real change.
 */
import { createHash } from "node:crypto";

export { greyThumbnail, type Pixels, SAMPLE_STEP, THUMBNAIL_SIDE } from "./thumbnail.js";

/** Grey levels (0–255) a cell may drift without counting: absorbs antialiasing and subpixel shading. */
export const DELTA_TOLERANCE = 12;
/** Below this fraction of changed cells the screen did not change (real UI changes measure ≥ 3 %, noise ≤ 0.02 %). */
export const NO_CHANGE_BELOW = 0.005;
/** Consecutive no-change steps that inject the warning (exactly once per streak). */
export const STALL_WARN_AT = 2;
/** Consecutive no-change steps that end the run with `stalled`. */
export const STALL_HALT_AT = 4;

/** Fraction of thumbnail cells whose grey level moved by more than `tolerance`. */
export function perceptualDelta(a: Uint8Array, b: Uint8Array, tolerance = DELTA_TOLERANCE): number {
  if (a.length !== b.length || a.length === 0) {
    throw new RangeError(`perceptualDelta: thumbnails differ in size (${a.length} vs ${b.length} cells)`);
  }
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs((a[i] as number) - (b[i] as number)) > tolerance) changed++;
  return changed / a.length;
}

export interface StallVerdict {
  delta: number;
  changed: boolean;
  /** Consecutive steps without a visible change, this one included. */
  stalls: number;
  /** Text to inject into THIS step's observation, set exactly once per streak. */
  warning?: string;
  halt: boolean;
}

export const STALL_WARNING =
  "The screen has not changed across your last two actions: your approach is not working. " +
  "Do not repeat the last action. Try a different control, keyboard navigation, or scrolling.";

/**
 * The four-state machine: progressing → suspect (1 no-change) → warned (2) → halted (4). The warning
 * fires on the step the count reaches 2 and not again in the same streak: repeating it would feed
 * the very pattern it is meant to break. A visible change resets the streak.
 */
export class StallDetector {
  private stalls = 0;

  constructor(
    private readonly warnAt = STALL_WARN_AT,
    private readonly haltAt = STALL_HALT_AT,
    private readonly threshold = NO_CHANGE_BELOW,
  ) {}

  /**
   * `stateChanged`: the interactive elements' roles, names or states differ from the previous frame.
   * A radio dot or a checkbox tick is a real change that moves under 0.5 % of a 64×64 thumbnail; the
   * accessibility tree sees it, and a ticking clock (static text, not an interactive element) it ignores.
   */
  observe(delta: number, stateChanged = false): StallVerdict {
    const changed = delta >= this.threshold || stateChanged;
    this.stalls = changed ? 0 : this.stalls + 1;
    const verdict: StallVerdict = { delta, changed, stalls: this.stalls, halt: this.stalls >= this.haltAt };
    if (this.stalls === this.warnAt) verdict.warning = STALL_WARNING;
    return verdict;
  }
}

/** What a person could act on, without positions: scrolling moves boxes but is visible in pixels anyway. */
export function elementsSignature(
  elements: readonly { role: string; name: string; states?: string[] }[],
): string {
  return elements.map((e) => `${e.role}\u0000${e.name}\u0000${(e.states ?? []).join(",")}`).join("\n");
}

export interface RepeatVerdict {
  /** How many times in a row this exact action was asked for. */
  count: number;
  warning?: string;
  halt: boolean;
}

/** Same action in a row, each changing nothing, before a warning. */
export const REPEAT_WARN_AT = 3;
/** Same action in a row that ends the run with `repeated`. */
export const REPEAT_HALT_AT = 5;

/** A stable hash of an action: keys sorted, so {x, y} and {y, x} are the same action. */
export function actionHash(action: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, x]) => [k, canonical(x)]),
          )
        : v;
  return createHash("sha256")
    .update(JSON.stringify(canonical(action)))
    .digest("hex")
    .slice(0, 16);
}

/**
 * Counts the same action asked for in a row while it changes nothing; warns once at `warnAt`, halts
 * at `haltAt`. A press that changed the screen or the element list is progress however often it is
 * asked for: six presses of a date picker's "Prev", each showing another month, are how a person
 * gets to the month they want (an earlier rule that counted any identical action ended that correct
 * run at the fifth). What changes the screen every time without getting anywhere (a carousel the
 * model keeps advancing) is left to the step limit.
 */
export class RepeatDetector {
  private last: string | undefined;
  private count = 0;

  constructor(
    private readonly warnAt = REPEAT_WARN_AT,
    private readonly haltAt = REPEAT_HALT_AT,
  ) {
    if (!(warnAt >= 2 && haltAt >= warnAt)) {
      throw new RangeError(`RepeatDetector: need 2 ≤ warnAt ≤ haltAt, got warnAt=${warnAt} haltAt=${haltAt}`);
    }
  }

  /** `changed`: the action's frame differs from the one before it (StallDetector's verdict). */
  observe(action: unknown, changed = false): RepeatVerdict {
    const hash = actionHash(action);
    this.count = hash === this.last && !changed ? this.count + 1 : 1;
    this.last = hash;
    const verdict: RepeatVerdict = { count: this.count, halt: this.count >= this.haltAt };
    if (this.count === this.warnAt) {
      verdict.warning = `You have asked for the same action ${this.count} times in a row. It is not getting you closer; try something different.`;
    }
    return verdict;
  }
}
