/**
 * What an action would activate, for the confirmation gate: read from the live page at the moment of
 * acting (the environment's `probe`), plus what the last observation showed at the point (its near
 * misses count: a click 8 px under a button is still aimed at it). The computer tools' resolve steps
 * (./tools.ts) call these; the gate (./gate.ts) judges the targets they return.
 */
import type { ScreenPoint, ToolTarget } from "../tools/index.js";
import { type KeyEffect, type Reach, reachOfKeys } from "./activation.js";
import { inSight } from "./env/serialize.js";
import { targetAt } from "./gate.js";
import type { CuaToolContext } from "./tools.js";
import { type LiveControl, NoAccessibilityTreeError, type Probe, type ProbeQuery } from "./types.js";

/** What a press at `point` reaches; `via` names which press of a drag ("press", "release"). */
export async function pressTarget(
  ctx: CuaToolContext,
  point: ScreenPoint,
  via?: string,
): Promise<ToolTarget | undefined> {
  // The release of a drag drops whatever it carries: the zone under it is judged, control or not.
  const live = await readLive(ctx, { kind: "point", ...point, ...(via === "release" ? { drop: true } : {}) });
  const targets: ToolTarget[] = [];
  // Without a live reading, a frame whose elements failed to capture cannot be judged at all.
  if (!live && ctx.frame.unchecked) return { kind: "unreadable", reason: ctx.frame.unchecked, point };
  // Out of sight, an element is under no point, whatever its box says (a row scrolled out of its panel).
  const seen = targetAt(point, ctx.frame.elements.filter(inSight));
  if (seen) {
    targets.push({
      kind: "element",
      role: seen.role,
      name: seen.name,
      states: seen.states ?? [],
      point,
      ...(via ? { via } : {}),
    });
  }
  if (live && !live.ok) targets.push({ kind: "unreadable", reason: live.reason, point });
  if (live?.ok) targets.push(...live.controls.map((c) => controlTarget(c, via)));
  return combine(targets);
}

/** What pressing `effect`'s keys (or typing its text) reaches: the focused element, or its form. */
export async function focusTarget(ctx: CuaToolContext, effect: KeyEffect): Promise<ToolTarget | undefined> {
  if (!effect.enter && !effect.space && effect.accessKey === undefined && !effect.changesChoice)
    return undefined;
  const live = await readLive(ctx, {
    kind: "focus",
    ...(effect.accessKey !== undefined ? { accessKey: effect.accessKey } : {}),
  });
  const reach = live
    ? reachOfKeys(effect, live.ok ? live.focus : undefined, live.ok ? undefined : live.reason)
    : observedFocus(ctx, effect);
  if (reach.kind === "nothing") return undefined;
  if (reach.kind === "unknown") return { kind: "unreadable", reason: reach.reason };
  return combine(reach.controls.map((c) => controlTarget(c)));
}

/**
 * The focus as the last observation's accessibility tree shows it (environments without a live
 * reading): its "focused" element. A focused field's form is not in the tree, so Enter there is unknown.
 */
function observedFocus(ctx: CuaToolContext, effect: KeyEffect): Reach {
  if (effect.movesFocusFirst) return reachOfKeys(effect, { kind: "none" });
  // Access keys are not in the tree; a chord that only might be one goes through, as before.
  if (!effect.enter && !effect.space) return { kind: "nothing" };
  const { elements, unchecked } = ctx.frame;
  if (unchecked) return { kind: "unknown", reason: unchecked };
  const focused = elements.find((e) => e.states?.includes("focused"));
  if (!focused) return { kind: "nothing" };
  const point = { x: focused.box.x + focused.box.width / 2, y: focused.box.y + focused.box.height / 2 };
  const control: LiveControl = {
    role: focused.role,
    name: focused.name,
    label: focused.name,
    point,
    via: "focused",
  };
  if (focused.role === "textbox" || focused.role === "combobox") {
    return effect.enter
      ? {
          kind: "unknown",
          reason: `Enter in ${focused.role} "${focused.name}" may submit a form the screen does not show`,
        }
      : { kind: "nothing" };
  }
  return { kind: "controls", controls: [control] };
}

/** The live page's answer; undefined when this environment has no page to read (no a11y tree at all). */
async function readLive(ctx: CuaToolContext, query: ProbeQuery): Promise<Probe | undefined> {
  const { env } = ctx;
  if (!env.probe) return undefined;
  try {
    return await env.probe(query);
  } catch (err) {
    if (err instanceof NoAccessibilityTreeError) return undefined;
    const cause = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return { ok: false, reason: `the live page could not be read (${cause})` };
  }
}

function controlTarget(c: LiveControl, via?: string): ToolTarget {
  const how = [via, c.via].filter(Boolean).join(", ");
  return {
    kind: "element",
    role: c.role,
    name: c.name,
    states: [],
    point: c.point,
    label: c.label,
    ...(how ? { via: how } : {}),
  };
}

/** Several targets of one action as one (each judged); none as undefined. */
export function combine(targets: readonly (ToolTarget | undefined)[]): ToolTarget | undefined {
  const all = targets.flatMap((t) => (t === undefined ? [] : t.kind === "several" ? t.targets : [t]));
  if (all.length <= 1) return all[0];
  return { kind: "several", targets: all };
}
