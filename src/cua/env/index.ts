/** Computer-use environments (a headless browser and an X11 desktop) and what they observe. */
export { collectAxTree, collectElements, type ViewportPlacement } from "./a11y.js";
export { browserBoxChecks } from "./box-doctor.js";
export {
  BrowserEnvironment,
  type BrowserEnvironmentOptions,
  type BrowserStartup,
  DEFAULT_SCREEN,
} from "./browser.js";
export { type BrowserSource, type EpisodeBrowser, ownBrowser, SharedBrowser } from "./browser-host.js";
export { TYPE_CHUNK } from "./browser-input.js";
export { CHROMIUM_PATH } from "./chromium.js";
export { cleanDom, DEFAULT_DOM_BUDGET, truncateText } from "./dom.js";
export { EgressProxy, type EgressRefusal, isAllowed, originRule, parseAllowHost } from "./egress.js";
export { toPlaywrightKeys, toXdotoolKeys } from "./keys.js";
export type { DownloadRecord } from "./page-downloads.js";
export {
  DIALOG_LOOP_AT,
  MAX_OPEN_PAGES,
  NAVIGATION_TIMEOUT_MS,
  type PageEvents,
  type PageGuardOptions,
  POPUP_FLOOD_AT,
  RENDERER_HEAP_MB,
} from "./page-guard.js";
export { describeHeld, MAX_HELD_RECORDS, refuseRequests } from "./request-gate.js";
export {
  allowedByRules,
  changesState,
  parseRequestRule,
  parseRequestRules,
  type RequestKind,
  type RequestRule,
} from "./request-rules.js";
export {
  type AxTreeNode,
  boxCentre,
  clickPoint,
  describeElements,
  elementLine,
  INTERACTIVE_ROLES,
  inSight,
  interactiveNodes,
  type Serialized,
  serialize,
} from "./serialize.js";
export { drawMarks, layoutMarks, MARK_COLOURS, type MarkLabel } from "./som.js";
export { X11Environment, type X11EnvironmentOptions } from "./x11.js";
export { PIXELS_PER_WHEEL_NOTCH, xdotoolCommands } from "./x11-input.js";

import type { Environment, Size } from "../types.js";
import { BrowserEnvironment, type BrowserStartup } from "./browser.js";
import type { BrowserSource } from "./browser-host.js";
import type { EgressRefusal } from "./egress.js";
import type { DownloadRecord } from "./page-downloads.js";
import type { PageEvents, PageGuardOptions } from "./page-guard.js";
import { X11Environment } from "./x11.js";

/** What both environments offer beyond the contract: the allowlist's refusals and page-state reads. */
export interface InspectableEnvironment extends Environment {
  /** Requests the egress allowlist refused this episode. */
  readonly refusals: readonly EgressRefusal[];
  /** Set when the browser runs with less than its box (or on the host): result.json's sandbox_warning. */
  readonly sandboxWarning: string | undefined;
  /** Run a script in the page (graders read final state with it); X11 needs its built-in Chromium. */
  evaluate<T>(script: string): Promise<T>;
  /** What the page did (dialogs, popups, a crash): the browser environment counts them. */
  readonly pageEvents?: PageEvents | undefined;
  /** The episode's downloads, saved in `guard.downloadsDir` (the browser environment). */
  readonly downloads?: readonly DownloadRecord[] | undefined;
  /** Where the last reset's time went: the browser's start, the first load (the browser environment). */
  readonly lastStartup?: BrowserStartup | undefined;
}

/**
 * One environment of the kind a task asks for; `guard`: the browser's caps and downloads folder;
 * `browsers`: where the browser comes from (a SharedBrowser a folder run keeps; default its own).
 */
export function createEnvironment(
  kind: Environment["kind"],
  screen?: Size,
  guard?: PageGuardOptions,
  browsers?: BrowserSource,
): InspectableEnvironment {
  const options = { ...(screen ? { screen } : {}), ...(guard ? { guard } : {}) };
  return kind === "browser"
    ? new BrowserEnvironment({ ...options, ...(browsers ? { browsers } : {}) })
    : new X11Environment(options);
}
export { recheckElement } from "./recheck.js";
