/**
 * The X11 desktop environment: Xvfb on a free display, matchbox-window-manager (Debian's smallest WM
 * that maximises windows: 4 packages against openbox's 35), xdotool for input, and a real application.
 * With a URL the application is Chromium in kiosk mode (./x11-chromium.ts: reached over CDP for the
 * accessibility tree, set-of-mark, DOM and the gate's reading, with the headless browser's guards);
 * with a command it is that program, and only screenshots are available.
 *
 * Screenshots read Xvfb's own frame buffer: `-fbdir` keeps the screen as an XWD file in memory, so a
 * capture is a read + decode + PNG encode with no X round trip or process spawn (`xwd -root` costs a
 * spawn and a copy through the X socket; see bench.ts).
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unprivilegedArgv } from "../../sandbox/index.js";
import { describeAction, MAX_WAIT_SECONDS } from "../actions.js";
import { encodeRaw } from "../image.js";
import {
  type Capture,
  type Environment,
  type EnvironmentStart,
  type HeldRequest,
  NoAccessibilityTreeError,
  type ObserveKind,
  type Probe,
  type ProbeQuery,
  type RequestHook,
  type ScreenAction,
  type Size,
  type UiElement,
} from "../types.js";
import { DEFAULT_SCREEN } from "./browser.js";
import { pageRefusals } from "./chromium.js";
import { DEFAULT_DOM_BUDGET } from "./dom.js";
import type { EgressRefusal } from "./egress.js";
import type { PageEvents, PageGuardOptions } from "./page-guard.js";
import { type Owned, removeNow, removeOnExit, run, spawnOwned, stopOwned } from "./proc.js";
import { drawMarksRaw } from "./som.js";
import { APP_START_TIMEOUT_MS, DesktopChromium } from "./x11-chromium.js";
import { xdotoolCommands } from "./x11-input.js";
import { startXvfb, waitFor } from "./xvfb.js";
import { decodeXwd, parseXwdHeader, type XwdImage } from "./xwd.js";

/** A wheel scroll is animated by the app; this lets it land before the next frame-buffer read. */
const SCROLL_SETTLE_MS = 50;
/** How long to wait for a started program's first paint before the episode starts anyway. */
const FIRST_PAINT_TIMEOUT_MS = 5_000;

export interface X11EnvironmentOptions {
  screen?: Size;
  domBudget?: number;
  /** Caps on what the desktop's page may do (page-guard.ts), as for the headless browser. */
  guard?: PageGuardOptions;
}

export class X11Environment implements Environment {
  readonly kind = "x11" as const;
  readonly screen: Size;
  private readonly domBudget: number;
  private procs: Owned[] = [];
  private display: string | undefined;
  private fbFile: string | undefined;
  private workDir: string | undefined;
  /** The desktop's Chromium (when the application is a URL), with its guards. */
  private readonly chromium: DesktopChromium;

  constructor(options: X11EnvironmentOptions = {}) {
    this.screen = options.screen ?? DEFAULT_SCREEN;
    this.domBudget = options.domBudget ?? DEFAULT_DOM_BUDGET;
    this.chromium = new DesktopChromium(options.guard);
  }

  /** What the desktop's page did this episode (dialogs, popups, a crash). */
  get pageEvents(): PageEvents {
    return this.chromium.pageEvents;
  }

  get refusals(): readonly EgressRefusal[] {
    // Chromium's own update/sign-in calls left out (chromium.ts); pages here are not watched per request.
    return pageRefusals(this.chromium.refusals);
  }

  /** This episode's held state-changing requests (the desktop's Chromium), with what became of each. */
  get heldRequests(): readonly HeldRequest[] {
    return this.chromium.heldRequests;
  }

  /** Who is asked about a state-changing request no task rule allows (default: refused). */
  approveRequests(hook: RequestHook): void {
    this.chromium.approveRequests(hook);
  }

  /** Why the desktop's Chromium runs with less than the full box, if it does (result.json). */
  get sandboxWarning(): string | undefined {
    return this.chromium.warning;
  }

  /** The desktop's Chromium browser process (host pid), while it runs. */
  get browserPid(): number | undefined {
    return this.chromium.pid;
  }

  /**
   * Process-group ids of Xvfb, the WM and a started program (each in its own group). The built-in
   * Chromium is Playwright's, in its box (see browserPid).
   */
  get processGroups(): number[] {
    return this.procs.flatMap((p) => (p.child.pid === undefined ? [] : [p.child.pid]));
  }

  /** The X display (":N") this desktop runs on, once reset. */
  get displayName(): string | undefined {
    return this.display;
  }

  async reset(start: EnvironmentStart): Promise<void> {
    if (!start.url && !start.command?.length) {
      throw new Error(
        "x11 environment: reset needs start.url (Chromium kiosk) or start.command (a program to run)",
      );
    }
    await this.teardown();
    this.chromium.clear();
    this.workDir = removeOnExit(
      mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "acilab-x11-")),
    );
    const xvfb = await startXvfb(this.screen, this.workDir);
    this.procs.push(xvfb.owned);
    this.display = xvfb.display;
    this.fbFile = xvfb.fbFile;
    // The window manager is an X client like the browser: the sandbox's uid, not root.
    const wm = [...unprivilegedArgv(), "matchbox-window-manager", "-use_titlebar", "no"];
    this.procs.push(spawnOwned("matchbox-window-manager", wm[0] as string, wm.slice(1), this.env()));
    if (start.command?.length) {
      const [cmd, ...args] = start.command as [string, ...string[]];
      this.procs.push(spawnOwned(cmd, cmd, args, this.env()));
      await this.waitForWindow(cmd);
      await this.waitForPaint();
    } else if (start.url) {
      await this.chromium.start({ ...start, url: start.url }, this.display, this.screen);
      await this.waitForWindow("chromium");
    }
  }

  async capture(observe: ObserveKind): Promise<Capture> {
    const started = performance.now();
    this.chromium.check();
    if (observe !== "screenshot") this.needPage(observe);
    // The frame buffer is the X server's, read whatever the page does; the page's elements are not.
    const [frame, read] = await Promise.all([
      this.frame(),
      observe === "screenshot" ? {} : this.chromium.read(observe, this.domBudget),
    ]);
    const { elements, dom } = read as { elements?: Capture["elements"]; dom?: string };
    // One PNG encode per capture: marks are drawn on the raw frame when asked for.
    const png =
      observe === "som" && elements
        ? await drawMarksRaw(frame.rgb, frame.size, elements)
        : await encodeRaw(frame.rgb, frame.size, 3);
    const capture: Capture = { png, size: { ...this.screen }, captureMs: 0 };
    if (elements) capture.elements = elements;
    if (dom !== undefined) capture.dom = dom;
    capture.captureMs = performance.now() - started;
    return capture;
  }

  async act(action: ScreenAction): Promise<void> {
    if (action.kind === "wait") {
      const ms = Math.min(Math.max(0, action.seconds), MAX_WAIT_SECONDS) * 1000;
      return new Promise((r) => setTimeout(r, ms));
    }
    const what = describeAction(action);
    this.chromium.acting(what);
    try {
      for (const argv of xdotoolCommands(action)) await this.xdotool(argv);
      // Let the app repaint a scroll before the next capture reads the frame buffer.
      if (action.kind === "scroll") await new Promise((r) => setTimeout(r, SCROLL_SETTLE_MS));
    } finally {
      this.chromium.acted(what);
    }
    this.chromium.check();
  }

  /**
   * The gate's reading of the inner Chromium's page, over its CDP session. A desktop running another
   * program has no page to read: NoAccessibilityTreeError, as for an a11y capture (the gate then
   * reads what captures show, which is nothing: see perceive.ts).
   */
  async probe(query: ProbeQuery): Promise<Probe> {
    this.needPage("a11y");
    // As in the headless browser: the pointer rests where it will press, the page reacts, then it is
    // read. xdotool's click there moves nothing (the X server sends no motion for no change).
    return this.chromium.probe(query, (x, y) =>
      this.xdotool(["mousemove", String(Math.round(x)), String(Math.round(y))]),
    );
  }

  /** Scroll an element listed offscreen into view in the inner browser's page (click_element on it). */
  async reveal(element: UiElement): Promise<void> {
    this.needPage("a11y");
    await this.chromium.reveal(element);
  }

  /** Evaluate a script in the inner browser's page (tests and graders read page state with it). */
  async evaluate<T>(script: string): Promise<T> {
    this.needPage("dom");
    return this.chromium.evaluate<T>(script);
  }

  async close(): Promise<void> {
    await this.teardown();
  }

  private frame(): XwdImage {
    if (!this.fbFile) throw new Error("x11 environment: no display — call reset() before capture");
    return decodeXwd(readFileSync(this.fbFile));
  }

  private needPage(observe: ObserveKind): void {
    if (!this.chromium.open) {
      throw new NoAccessibilityTreeError(
        `x11 environment: the "${observe}" observation needs the accessibility tree, which only the built-in Chromium application exposes (over CDP) — start with { url } instead of { command }, or observe "screenshot"`,
      );
    }
  }

  private async waitForWindow(what: string): Promise<void> {
    await run(
      "xdotool",
      ["search", "--sync", "--onlyvisible", "--name", ".*"],
      this.env(),
      APP_START_TIMEOUT_MS,
    ).catch((err: Error) => {
      const owner = this.procs.find((p) => p.name === what);
      throw new Error(`x11 environment: no window from ${what} appeared: ${owner?.stderr() || err.message}`);
    });
  }

  /**
   * A window is mapped before its program paints it; wait until the frame buffer is no longer one flat
   * colour, so the first capture shows the application (capped: a blank app is still a valid start).
   */
  private async waitForPaint(): Promise<void> {
    const fb = this.fbFile;
    if (!fb) return;
    await waitFor(
      () => !isFlat(readFileSync(fb)),
      FIRST_PAINT_TIMEOUT_MS,
      () => "",
    ).catch(() => undefined);
  }

  private xdotool(args: string[]): Promise<void> {
    if (!this.display)
      return Promise.reject(new Error("x11 environment: no display — call reset() before act"));
    return run("xdotool", args, this.env()).then(() => undefined);
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, DISPLAY: this.display ?? "" };
  }

  private async teardown(): Promise<void> {
    // The browser first (its box and proxy with it), while its display is still there.
    await this.chromium.close();
    for (const owned of this.procs.reverse()) await stopOwned(owned);
    this.procs = [];
    if (this.workDir) removeNow(this.workDir);
    this.workDir = this.display = this.fbFile = undefined;
  }
}

/** True when every sampled pixel of an XWD frame equals the first (an unpainted screen). */
function isFlat(xwd: Buffer): boolean {
  const { size, pixelOffset, bytesPerLine } = parseXwdHeader(xwd);
  const first = xwd.readUInt32LE(pixelOffset) & 0xffffff;
  // ~4000 samples on a prime stride: cheap, and no window is small enough to fall between them.
  const pixels = size.width * size.height;
  for (let i = 0; i < pixels; i += 241) {
    const p = pixelOffset + Math.floor(i / size.width) * bytesPerLine + (i % size.width) * 4;
    if ((xwd.readUInt32LE(p) & 0xffffff) !== first) return false;
  }
  return true;
}
