/**
 * Before `click_element(k)` acts, the element the model chose is looked up again in a fresh snapshot:
 * between the observation and the action the page may have re-rendered, and a stale box would land the
 * click on whatever moved there. Never act on a cached coordinate.
 */
import type { UiElement } from "../types.js";

const sameTarget = (a: UiElement, b: UiElement) => a.role === b.role && a.name === b.name;

/**
 * The fresh element that is the one the model chose: the same number if it still has the same role
 * and name, else the only fresh element with that role and name. undefined when it is gone or
 * ambiguous — the caller tells the model to look again rather than guess.
 */
export function recheckElement(chosen: UiElement, fresh: readonly UiElement[]): UiElement | undefined {
  const byIndex = fresh.find((el) => el.index === chosen.index);
  if (byIndex && sameTarget(byIndex, chosen)) return byIndex;
  const matches = fresh.filter((el) => sameTarget(el, chosen));
  return matches.length === 1 ? matches[0] : undefined;
}
