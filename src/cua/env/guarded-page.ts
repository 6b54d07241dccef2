/**
 * What both Chromium environments (headless, and the X11 desktop's) do to a page through the page
 * guard: load the first page (a load that never ends is the page's hazard, not an error), scroll an
 * element into view, evaluate a script.
 */
import type { CDPSession, Page } from "playwright-core";
import { PageHazardError, type UiElement } from "../types.js";
import type { PageGuard } from "./page-guard.js";
import { revealThroughCdp } from "./reveal.js";

export async function loadFirstPage(guard: PageGuard, page: Page, url: string): Promise<void> {
  const timeout = guard.navigationTimeoutMs;
  try {
    await guard.race(page.goto(url, { waitUntil: "load", timeout }));
  } catch (err) {
    if (err instanceof PageHazardError || !/Timeout/i.test((err as Error).name + (err as Error).message))
      throw err;
    guard.trip({ kind: "load_timeout", detail: `${url} did not finish loading within ${timeout / 1000} s` });
    guard.check();
  }
}

/** Scroll an element listed offscreen into view (click_element on it). */
export async function revealGuarded(
  guard: PageGuard,
  { page, cdp }: { page: Page; cdp: CDPSession },
  element: UiElement,
): Promise<void> {
  await guard.race(
    revealThroughCdp(cdp, element, (s) => page.evaluate(s)),
    "scrolling into view",
  );
}

export async function evaluateGuarded<T>(guard: PageGuard, page: Page, script: string): Promise<T> {
  return (await guard.race(page.evaluate(script), "an evaluation in the page")) as T;
}
