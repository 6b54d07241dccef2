/**
 * The confirmation gate: before a click lands, read the label of what it would hit from the
 * accessibility tree; if the label is destructive, ask a person. With nobody to ask (headless runs)
 * the answer is no: the gate fails closed, and the model is told why. It is the registry's permission
 * hook for computer use: the click tools' `resolve` step (./tools.ts) names the target, this judges it.
 */
import type { PermissionHook, ScreenPoint } from "../tools/index.js";
import type { UiElement } from "./types.js";

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
  /** The tool that would click (click, double_click, click_element). */
  tool: string;
  /** The element the click would hit (or nearly hit). */
  element: { role: string; name: string; states: string[] };
  /** The vocabulary entry that matched its label. */
  matched: string;
  /** Where on the screen the click would land. */
  point: ScreenPoint;
  /** One line for a person: `click on button "Delete account" (matched "delete")`. */
  summary: string;
}

/** Asked before a destructive click; true lets it through. */
export type ConfirmHook = (request: ConfirmRequest) => boolean | Promise<boolean>;

/** The headless default: nobody is there to approve, so nothing destructive happens. */
export const denyAll: ConfirmHook = () => false;

/** The gate as the registry's permission hook, with the clicks it refused (a run's result lists them). */
export type ConfirmationGate = PermissionHook & { readonly blocked: readonly ConfirmRequest[] };

const ALLOW = { allow: true } as const;

/**
 * The confirmation gate as a permission hook. A call without a target (typing, scrolling, a click on
 * empty space) goes through; a click whose target could not be read is refused (fail closed); a click
 * on a destructive label asks `confirm`, and a refusal says what would have been hit.
 */
export function confirmationGate(
  confirm: ConfirmHook = denyAll,
  vocabulary: readonly string[] = DESTRUCTIVE_VOCABULARY,
): ConfirmationGate {
  const blocked: ConfirmRequest[] = [];
  const hook: PermissionHook = async (tool, _input, target) => {
    if (!target) return ALLOW;
    if (target.kind === "unreadable") {
      return {
        allow: false,
        reason: `the target of that click could not be checked for a destructive label (${target.reason}), so nothing was clicked; the observation below is a fresh capture, look at it before clicking again`,
      };
    }
    const { role, name, states, point } = target;
    const matched = destructiveMatch([name, ...states].join(" "), vocabulary);
    if (!matched) return ALLOW;
    const summary = `click on ${role} "${name}" (matched "${matched}")`;
    const request: ConfirmRequest = { tool, element: { role, name, states }, matched, point, summary };
    if (await confirm(request)) return ALLOW;
    blocked.push(request);
    return {
      allow: false,
      reason: `that click would hit ${role} "${name}", which looks destructive (matched "${matched}"), and it was not approved; nothing was clicked`,
    };
  };
  return Object.assign(hook, { blocked });
}

/** The first vocabulary entry the label contains as whole words, or undefined. */
export function destructiveMatch(label: string, vocabulary = DESTRUCTIVE_VOCABULARY): string | undefined {
  const text = label.toLowerCase().replace(/\s+/g, " ");
  return vocabulary.find((entry) => {
    const words = entry.toLowerCase().split(/\s+/).map(escapeRegExp).join("\\s+");
    return new RegExp(`(^|[^\\p{L}\\p{N}])${words}([^\\p{L}\\p{N}]|$)`, "u").test(text);
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
