/**
 * The computer-use contract: what an environment is, what an agent can do to it and what it sees.
 * Coordinates in actions are in the MODEL's image space (the downscaled screenshot the model was
 * shown); the loop maps them to the screen (see scaling). Environments only ever see screen pixels.
 */
import { ObserverStop } from "../loop/index.js";

export interface Size {
  width: number;
  height: number;
}

export type MouseButton = "left" | "right" | "middle";

/** What a computer-use policy may ask for. `click_element` only when the observation numbered elements. */
export type CuaAction =
  | { kind: "click"; x: number; y: number; button?: MouseButton }
  | { kind: "double_click"; x: number; y: number }
  | { kind: "move"; x: number; y: number }
  | { kind: "drag"; from: { x: number; y: number }; to: { x: number; y: number } }
  /** Typed in chunks (the environment's choice of size), never as one paste. */
  | { kind: "type"; text: string }
  /** A key or combo in xdotool/Playwright style: "Enter", "ctrl+a", "shift+Tab". */
  | { kind: "key"; keys: string }
  | { kind: "scroll"; x: number; y: number; dx: number; dy: number }
  /** A real pause, capped at 10 s. */
  | { kind: "wait"; seconds: number }
  | { kind: "screenshot" }
  | { kind: "click_element"; index: number }
  | { kind: "done"; summary: string };

/** The same action with coordinates already on the screen: what an environment executes. */
export type ScreenAction = Exclude<
  CuaAction,
  { kind: "click_element" } | { kind: "done" } | { kind: "screenshot" }
>;

/** One interactive element of the accessibility tree, as serialised for the model. */
export interface UiElement {
  /** 1-based number shown to the model (`[k] role "name"`), in document order. */
  index: number;
  role: string;
  name: string;
  /** Box on the screen, in screen pixels (the whole element's, for one listed `offscreen`). */
  box: { x: number; y: number; width: number; height: number };
  /**
   * Extra state worth saying: disabled, checked, expanded, value; `offscreen` when nothing of it is
   * on screen (scrolled out of its container, or out of the viewport): it has no click point then.
   */
  states?: string[];
  /**
   * Where a click reaches it, when that is not its box's centre (an icon whose centre is covered by
   * its neighbour): the point nearest the centre where the page's hit test finds the element.
   */
  point?: { x: number; y: number };
  /** The environment's handle on the element (Chromium's backend node id), to scroll it into view. */
  ref?: number;
}

/** What can be observed; a task says which kinds apply to it. */
export type ObserveKind = "screenshot" | "a11y" | "som" | "dom";

/** One capture: taken once per step, the same bytes judged by the stall detector and shown to the model. */
export interface Capture {
  /** PNG of the whole screen at the environment's screen size. */
  png: Buffer;
  size: Size;
  /** Present for a11y / som observations: visible interactive elements in document order. */
  elements?: UiElement[];
  /** Present for dom observations: cleaned DOM text. */
  dom?: string;
  /** Wall-clock ms the capture took (for the capture-latency benchmark). */
  captureMs: number;
}

/** A disposable environment: reset gives a fresh one per episode, close tears everything down. */
export interface Environment {
  readonly kind: "browser" | "x11";
  readonly screen: Size;
  /** Start (or restart) from the task's initial state: fresh profile, fresh page/app. */
  reset(start: EnvironmentStart): Promise<void>;
  /** Take one capture with what `observe` asks for. */
  capture(observe: ObserveKind): Promise<Capture>;
  /** Execute one action in screen coordinates; throws only on infrastructure failure. */
  act(action: ScreenAction): Promise<void>;
  /**
   * Read the live page, just before acting: the controls a press at a screen point would activate, or
   * the focused element a key would land on (./activation.ts). Absent: the environment cannot read
   * its page, and the gate falls back to a fresh capture's accessibility tree.
   */
  probe?(query: ProbeQuery): Promise<Probe>;
  /**
   * Scroll an element listed `offscreen` into view (its containers and the page), so a fresh capture
   * gives it a click point. Absent: the environment cannot, and click_element refuses such elements.
   */
  reveal?(element: UiElement): Promise<void>;
  /**
   * The consequence gate: who is asked about a state-changing request no `allowRequests` rule covers
   * (a person in interactive use; the default refuses). Absent: the environment cannot hold requests.
   */
  approveRequests?(hook: RequestHook): void;
  /** This episode's state-changing requests that were held, and what became of each (in order). */
  readonly heldRequests?: readonly HeldRequest[] | undefined;
  close(): Promise<void>;
}

/** A state-changing request the page made, held until a rule or a person allowed it. */
export interface HeldRequest {
  /** "request" (fetch, XHR), "form" (a form submission), "beacon", "navigation", "websocket". */
  kind: "request" | "form" | "beacon" | "navigation" | "websocket";
  /** The HTTP method; "WS" for a WebSocket open. */
  method: string;
  url: string;
  /** Bytes of the body; null when the browser did not say (a streamed or file body). */
  bodyBytes: number | null;
  /** The action in flight when the page made it (`click (200, 120)`), `after …` the last one, or `the first page loading`. */
  cause: string;
  /** What became of it: a task rule allowed it, a person did, or it was refused. */
  decision: "rule" | "approved" | "refused";
}

/** Asked about a held request no rule allows; true lets it through. Headless runs refuse. */
export type RequestHook = (request: Omit<HeldRequest, "decision">) => boolean | Promise<boolean>;

export type ProbeQuery =
  /** With `drop`, the release of a drag: what lies under it is judged too, control or not (a drop zone). */
  | { kind: "point"; x: number; y: number; drop?: boolean }
  /** With `accessKey`, also the elements whose accesskey it is (what alt+shift+KEY clicks). */
  | { kind: "focus"; accessKey?: string };

/** A control on the live page, as the gate judges it. */
export interface LiveControl {
  role: string;
  /** What a user reads as its name (accessible name, else its text). */
  name: string;
  /**
   * Every text that names it, joined: aria-label(ledby), labels, value, alt, text, title; for a
   * submit also its form's label and action, for a link where it goes.
   */
  label: string;
  /** How the input reaches it ("under a see-through element", "its label", "focused"); absent: a plain hit. */
  via?: string;
  /** Its centre on the screen. */
  point: { x: number; y: number };
}

/**
 * Where the focus is: `none` (the page itself), `text` (a one-line field: Enter submits its form),
 * `multiline` (textarea, contenteditable: Enter is a newline), `control` (anything else: Enter and
 * space activate it), `opaque` (a canvas, an embed: what a key does there cannot be read).
 */
export interface FocusedElement {
  kind: "none" | "text" | "multiline" | "control" | "opaque";
  self?: LiveControl;
  /** Set when Enter here submits a form: its default button (or the form itself), with the form's label. */
  submit?: LiveControl;
  /** For a query with an access key: the controls that key would click. */
  accessKeyed?: LiveControl[];
  /**
   * What an arrow key or type-ahead changes on the focused control: a select (its options in its
   * label), every radio of its group, a range; each with the form a change may submit.
   */
  choice?: LiveControl[];
  /** Links the focused control sits in: Enter or space on it follows them too. */
  links?: LiveControl[];
}

export type Probe =
  | { ok: true; controls: LiveControl[]; focus?: FocusedElement }
  /** The page could not be read (evaluation failed, a cross-origin frame, a canvas): the gate refuses. */
  | { ok: false; reason: string };

export interface EnvironmentStart {
  /** First page (browser) or program to launch (x11). */
  url?: string;
  command?: string[];
  /** Hosts the page may reach (everything else is refused below the page); default: the start URL's origin only. */
  allowHosts?: string[];
  /**
   * State-changing requests allowed without asking (`METHOD PATTERN`, see env/request-rules.ts);
   * every other one is held for the approver and refused in a headless run.
   */
  allowRequests?: string[];
  /** Pre-authenticated session: cookies injected before the first load; never typed credentials. */
  cookies?: Array<{ name: string; value: string; domain: string; path?: string }>;
}

/** What a hostile or broken page did that ends its episode (stop reason `page_misbehaved`). */
export type PageHazardKind =
  | "dialog_loop"
  | "popup_flood"
  | "load_timeout"
  | "page_crashed"
  | "page_unresponsive"
  | "download_too_large"
  | "console_flood"
  | "navigation_flood";

export interface PageHazard {
  kind: PageHazardKind;
  detail: string;
}

/**
 * Thrown by an environment's reset, capture or act once the page misbehaved: the episode ends with
 * `page_misbehaved` and this detail, not `env_error` — the environment is fine, the page is not.
 */
export class PageHazardError extends ObserverStop {
  constructor(readonly hazard: PageHazard) {
    super("page_misbehaved", `${hazard.kind.replaceAll("_", " ")}: ${hazard.detail}`);
    this.name = "PageHazardError";
  }
}

/**
 * Thrown by capture when the environment has no accessibility tree at all (an X11 desktop running a
 * program other than its built-in Chromium): the one failure after which a screenshot run may fall
 * back to bare pixels. Any other capture failure is about one step, not the environment.
 */
export class NoAccessibilityTreeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoAccessibilityTreeError";
  }
}
