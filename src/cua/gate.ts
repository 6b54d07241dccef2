/**
 * The confirmation gate (seed 002's fifth control): before a click lands, read the label of what it
 * would hit from the accessibility tree; if the label is destructive, ask a person. With nobody to
 * ask (headless runs) the answer is no: the gate fails closed, and the model is told why.
 */
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
  /** The element the click would hit (or nearly hit). */
  element: UiElement;
  /** The vocabulary entry that matched its label. */
  matched: string;
  /** Where on the screen the click would land. */
  point: { x: number; y: number };
  /** One line for a person: `click on button "Delete account" (matched "delete")`. */
  summary: string;
}

/** Asked before a destructive click; true lets it through. */
export type ConfirmHook = (request: ConfirmRequest) => boolean | Promise<boolean>;

/** The headless default: nobody is there to approve, so nothing destructive happens. */
export const denyAll: ConfirmHook = () => false;

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

export type GateDecision =
  | { allow: true; checked?: ConfirmRequest }
  | { allow: false; request: ConfirmRequest; observation: string };

/** Decide a click at `point` (screen px) given the elements of the frame the model acted on. */
export async function gateClick(
  point: { x: number; y: number },
  elements: readonly UiElement[],
  confirm: ConfirmHook,
  vocabulary = DESTRUCTIVE_VOCABULARY,
): Promise<GateDecision> {
  const element = targetAt(point, elements);
  if (!element) return { allow: true };
  const label = [element.name, ...(element.states ?? [])].join(" ");
  const matched = destructiveMatch(label, vocabulary);
  if (!matched) return { allow: true };
  const request: ConfirmRequest = {
    element,
    matched,
    point,
    summary: `click on ${element.role} "${element.name}" (matched "${matched}")`,
  };
  if (await confirm(request)) return { allow: true, checked: request };
  return {
    allow: false,
    request,
    observation:
      `blocked: that click would hit ${element.role} "${element.name}", which looks destructive (matched "${matched}"), ` +
      "and it was not approved. Nothing was clicked. Do not try it again; if the task needs something else, find that control instead.",
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
