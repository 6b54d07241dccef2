/**
 * The confirmation gate: before an action lands, judge what it would activate — the control under a
 * press (both ends of a drag, a label's control, a control under a see-through overlay), the focused
 * control or form a key or a typed newline would press or submit — read from the live page at that
 * moment (./reach.ts). If any of its labels is destructive, ask a person. With nobody to ask
 * (headless runs) the answer is no; a target that cannot be read is refused too (it fails closed).
 * Every refusal is kept for the run's result and the model is told why. It is the registry's
 * permission hook for computer use: the tools' `resolve` steps (./tools.ts) name the targets.
 */
import type { PermissionHook, ScreenPoint } from "../tools/index.js";
import { foldLabel, labelReadings } from "./label-text.js";
import type { HeldRequest, UiElement } from "./types.js";

/**
 * Labels that name an irreversible act. Matched as whole words, case-insensitively. "Cancel" alone is
 * every dialog's harmless button, so only "cancel subscription/membership/plan" counts.
 */
export const DESTRUCTIVE_VOCABULARY: readonly string[] = [
  "delete",
  "remove",
  "revoke",
  "cancel subscription",
  "cancel membership",
  "cancel plan",
  "transfer",
  "erase",
  "destroy",
  "wipe",
  "deactivate",
  "terminate",
  "close account",
  "permanently",
];

/** How far (screen px) from a control a click still counts as aimed at it: a near miss is still its click. */
export const GATE_NEAR_PX = 24;

export interface ConfirmRequest {
  /** The tool that would act (click, double_click, click_element, drag, key, type). */
  tool: string;
  /** The control the action would activate. */
  element: { role: string; name: string; states: string[] };
  /** The vocabulary entry that matched one of its labels. */
  matched: string;
  /** Where on the screen the control is, when known. */
  point?: ScreenPoint;
  /** How the action reaches it ("press", "focused", "under a see-through element"); absent: a plain hit. */
  via?: string;
  /** One line for a person: `click on button "Delete account" (matched "delete")`. */
  summary: string;
}

/** An action refused because what it would activate could not be read. */
export interface UnreadableRefusal {
  tool: string;
  unreadable: string;
  point?: ScreenPoint;
  summary: string;
}

/**
 * A state-changing request the page made that no task rule allowed and nobody approved: the
 * consequence gate's refusal (env/request-gate.ts), listed with the gate's own.
 */
export interface RequestRefusal {
  request: HeldRequest;
  /** `request POST http://…/account/delete (form submission, 14-byte body; during click (200, 120)) refused`. */
  summary: string;
}

/**
 * What was refused: a destructive target nobody approved, one the gate could not read, or a
 * state-changing request the page made.
 */
export type GateRefusal = ConfirmRequest | UnreadableRefusal | RequestRefusal;

/** Asked before a destructive action; true lets it through. */
export type ConfirmHook = (request: ConfirmRequest) => boolean | Promise<boolean>;

/**
 * Asked before an action whose target cannot be read (a canvas, a cross-origin frame); true lets it
 * through. The default refuses: only whoever knows the page (a person, a task that is a canvas game)
 * can say such a click is safe.
 */
export type UnreadableHook = (request: { tool: string; reason: string }) => boolean | Promise<boolean>;

/** The headless default: nobody is there to approve, so nothing destructive happens. */
export const denyAll: ConfirmHook & UnreadableHook = () => false;

/** The gate as the registry's permission hook, with the actions it refused (a run's result lists them). */
export type ConfirmationGate = PermissionHook & { readonly blocked: readonly GateRefusal[] };

const ALLOW = { allow: true } as const;
const CLICKS = new Set(["click", "double_click", "click_element"]);

/**
 * The confirmation gate as a permission hook. A call without a target (a scroll, a move, a key that
 * activates nothing, a click on empty space) goes through; a target that could not be read is
 * refused unless `unreadable` approves it; a destructive one asks `confirm`, once per control. An
 * action with several targets (a drag's two ends, an overlay and what is under it) is refused on the
 * first unreadable or unapproved one.
 */
export function confirmationGate(
  confirm: ConfirmHook = denyAll,
  vocabulary: readonly string[] = DESTRUCTIVE_VOCABULARY,
  unreadable: UnreadableHook = denyAll,
): ConfirmationGate {
  const blocked: GateRefusal[] = [];
  const hook: PermissionHook = async (tool, input, target) => {
    if (!target) return ALLOW;
    const act = actName(tool, input);
    const click = CLICKS.has(tool);
    const targets = target.kind === "several" ? target.targets : [target];
    for (const t of targets) {
      if (t.kind !== "unreadable" || (await unreadable({ tool, reason: t.reason }))) continue;
      blocked.push({
        tool,
        unreadable: t.reason,
        ...(t.point ? { point: t.point } : {}),
        summary: `${act}: what it would activate could not be read (${t.reason})`,
      });
      return {
        allow: false,
        reason: `the target of that ${click ? "click" : verb(tool)} could not be checked for a destructive label (${t.reason}), so nothing was ${click ? "clicked" : "done"}; the observation below is a fresh capture, look at it before acting again`,
      };
    }
    // The same control seen twice (the observation and the live page, a drag's two ends) is asked about once.
    const approved = new Set<string>();
    for (const t of targets) {
      if (t.kind !== "element") continue;
      const { role, name, states, point, via } = t;
      const matched = destructiveMatch([name, t.label ?? "", ...states].join(" "), vocabulary);
      if (!matched || approved.has(`${role}\n${name}`)) continue;
      const how = via ? `${via}; ` : "";
      const summary = `${act} on ${role} "${name}" (${how}matched "${matched}")`;
      const request: ConfirmRequest = {
        tool,
        element: { role, name, states },
        matched,
        ...(point ? { point } : {}),
        ...(via ? { via } : {}),
        summary,
      };
      if (await confirm(request)) {
        approved.add(`${role}\n${name}`);
        continue;
      }
      blocked.push(request);
      const reach = click ? "that click would hit" : `that ${verb(tool)} would activate`;
      return {
        allow: false,
        reason: `${reach} ${role} "${name}"${via ? ` (${via})` : ""}, which looks destructive (matched "${matched}"), and it was not approved; nothing was ${click ? "clicked" : "done"}`,
      };
    }
    return ALLOW;
  };
  return Object.assign(hook, { blocked });
}

/** `key Enter`, `type "x\n"`, `drag`: how a summary names the action. */
function actName(tool: string, input: unknown): string {
  const asked = (input as { asked?: { kind?: string; keys?: unknown; text?: unknown } } | undefined)?.asked;
  if (tool === "key" && typeof asked?.keys === "string") return `key ${asked.keys}`;
  if (tool === "type" && typeof asked?.text === "string") {
    const text = asked.text.length > 24 ? `${asked.text.slice(0, 23)}…` : asked.text;
    return `type ${JSON.stringify(text)}`;
  }
  return tool;
}

function verb(tool: string): string {
  return tool === "key" ? "key press" : tool === "type" ? "typing" : tool;
}

/**
 * The first vocabulary entry the label contains as whole words, or undefined. The label is read as a
 * person would (./label-text.ts: invisible characters dropped, look-alike letters folded, a
 * right-to-left override read as shown), and the vocabulary folded the same way.
 */
export function destructiveMatch(label: string, vocabulary = DESTRUCTIVE_VOCABULARY): string | undefined {
  const readings = labelReadings(label);
  return vocabulary.find((entry) => {
    const words = foldLabel(entry).split(/\s+/).map(escapeRegExp).join("\\s+");
    const re = new RegExp(`(^|[^\\p{L}\\p{N}])${words}([^\\p{L}\\p{N}]|$)`, "u");
    return readings.some((text) => re.test(text));
  });
}

/**
 * The element a screen point targets: the smallest box containing it (a button inside a card is the
 * button); otherwise the nearest box within `near` pixels; otherwise none.
 */
export function targetAt(
  point: { x: number; y: number },
  elements: readonly UiElement[],
  near = GATE_NEAR_PX,
) {
  let best: UiElement | undefined;
  let bestArea = Number.POSITIVE_INFINITY;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const el of elements) {
    const { x, y, width, height } = el.box;
    const dx = Math.max(x - point.x, 0, point.x - (x + width));
    const dy = Math.max(y - point.y, 0, point.y - (y + height));
    const distance = Math.hypot(dx, dy);
    const area = width * height;
    if (distance < bestDistance || (distance === bestDistance && area < bestArea)) {
      best = el;
      bestDistance = distance;
      bestArea = area;
    }
  }
  return best !== undefined && bestDistance <= near ? best : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
