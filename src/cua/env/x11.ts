/**
 * The X11 desktop environment: Xvfb on a free display, matchbox-window-manager (Debian's smallest WM
 * that maximises windows: 4 packages against openbox's 35), xdotool for input, and a real application.
 * With a URL the application is Chromium in kiosk mode, reached over CDP for the accessibility tree,
 * set-of-mark and DOM; with a command it is that program, and only screenshots are available.
 *
 * Screenshots read Xvfb's own frame buffer: `-fbdir` keeps the screen as an XWD file in memory, so a
 * capture is a read + decode + PNG encode with no X round trip or process spawn (`xwd -root` costs a
 * spawn and a copy through the X socket; see bench.ts).
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { unprivilegedArgv } from "../../sandbox/index.js";
import { MAX_WAIT_SECONDS } from "../actions.js";
import { encodeRaw } from "../image.js";
import {
  type Capture,
  type Environment,
  type EnvironmentStart,
  NoAccessibilityTreeError,
  type ObserveKind,
  type Probe,
  type ProbeQuery,
  type ScreenAction,
  type Size,
  type UiElement,
} from "../types.js";
import { collectElements, type ViewportPlacement } from "./a11y.js";
import { DEFAULT_SCREEN } from "./browser.js";
import {
  artifactsDirOf,
  assertChromium,
  freshProfile,
  pageRefusals,
  QUIET_CHROMIUM_FLAGS,
  removeProfile,
} from "./chromium.js";
import { cleanDom, DEFAULT_DOM_BUDGET } from "./dom.js";
import { type EgressProxy, type EgressRefusal, originRule } from "./egress.js";
import { browserPid, type LaunchedChromium, launchChromium } from "./launch.js";
import { probeThroughCdp } from "./probe.js";
import { type Owned, removeNow, removeOnExit, run, spawnOwned, stopOwned } from "./proc.js";
import { revealThroughCdp } from "./reveal.js";
import { sweepBrowserLeftovers } from "./scratch.js";
import { drawMarksRaw } from "./som.js";
import { xdotoolCommands } from "./x11-input.js";
import { startXvfb, waitFor } from "./xvfb.js";
import { decodeXwd, parseXwdHeader, type XwdImage } from "./xwd.js";

/** A wheel scroll is animated by the app; this lets it land before the next frame-buffer read. */
const SCROLL_SETTLE_MS = 50;
const APP_START_TIMEOUT_MS = 20_000;
/** How long to wait for a started program's first paint before the episode starts anyway. */
const FIRST_PAINT_TIMEOUT_MS = 5_000;

export interface X11EnvironmentOptions {
  screen?: Size;
  domBudget?: number;
}

/** The browser inside the desktop, when the application is Chromium. */
interface InnerBrowser {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
}

export class X11Environment implements Environment {
  readonly kind = "x11" as const;
  readonly screen: Size;
  private readonly domBudget: number;
  private procs: Owned[] = [];
  private display: string | undefined;
  private fbFile: string | undefined;
  private workDir: string | undefined;
  private profile: string | undefined;
  private proxy: EgressProxy | undefined;
  private inner: InnerBrowser | undefined;
  private launched: LaunchedChromium | undefined;
  private warning: string | undefined;

  constructor(options: X11EnvironmentOptions = {}) {
    this.screen = options.screen ?? DEFAULT_SCREEN;
    this.domBudget = options.domBudget ?? DEFAULT_DOM_BUDGET;
  }

  get refusals(): readonly EgressRefusal[] {
    // Chromium's own update/sign-in calls left out (chromium.ts); pages here are not watched per request.
    return pageRefusals(this.proxy?.refusals ?? []);
  }

  /** Why the desktop's Chromium runs with less than the full box, if it does (result.json). */
  get sandboxWarning(): string | undefined {
    return this.warning;
  }

  /** The desktop's Chromium browser process (host pid), while it runs. */
  get browserPid(): number | undefined {
    return this.launched ? browserPid(this.launched.box) : undefined;
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
      await this.startChromium(start);
    }
  }

  async capture(observe: ObserveKind): Promise<Capture> {
    const started = performance.now();
    const wantElements = observe === "a11y" || observe === "som";
    const inner = observe === "screenshot" ? undefined : this.innerFor(observe);
    const [frame, elements, dom] = await Promise.all([
      this.frame(),
      wantElements && inner ? collectElements(inner.cdp, await this.placement(inner.page)) : undefined,
      observe === "dom" && inner ? cleanDom(inner.page, this.domBudget) : undefined,
    ]);
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
    for (const argv of xdotoolCommands(action)) await this.xdotool(argv);
    // Let the app repaint a scroll before the next capture reads the frame buffer.
    if (action.kind === "scroll") await new Promise((r) => setTimeout(r, SCROLL_SETTLE_MS));
  }

  /**
   * The gate's reading of the inner Chromium's page, over its CDP session. A desktop running another
   * program has no page to read: NoAccessibilityTreeError, as for an a11y capture.
   */
  async probe(query: ProbeQuery): Promise<Probe> {
    // The same error captures throw: the gate then reads what captures show, which is nothing (see perceive.ts).
    const inner = this.innerFor("a11y");
    const placement = await this.placement(inner.page).catch(() => undefined);
    if (!placement)
      return { ok: false, reason: "the browser window's place on the screen could not be read" };
    if (query.kind === "point") {
      // As in the headless browser: the pointer rests where it will press, the page reacts, then it
      // is read. xdotool's click there moves nothing (the X server sends no motion for no change).
      await this.xdotool(["mousemove", String(Math.round(query.x)), String(Math.round(query.y))]);
      await inner.page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    }
    return probeThroughCdp(inner.cdp, query, placement.offset);
  }

  /** Scroll an element listed offscreen into view in the inner browser's page (click_element on it). */
  async reveal(element: UiElement): Promise<void> {
    const inner = this.innerFor("a11y");
    await revealThroughCdp(inner.cdp, element, (s) => inner.page.evaluate(s));
  }

  /** Evaluate a script in the inner browser's page (tests and graders read page state with it). */
  async evaluate<T>(script: string): Promise<T> {
    return (await this.innerFor("dom").page.evaluate(script)) as T;
  }

  async close(): Promise<void> {
    await this.teardown();
    this.proxy = undefined;
  }

  private frame(): XwdImage {
    if (!this.fbFile) throw new Error("x11 environment: no display — call reset() before capture");
    return decodeXwd(readFileSync(this.fbFile));
  }

  private innerFor(observe: ObserveKind): InnerBrowser {
    if (!this.inner) {
      throw new NoAccessibilityTreeError(
        `x11 environment: the "${observe}" observation needs the accessibility tree, which only the built-in Chromium application exposes (over CDP) — start with { url } instead of { command }, or observe "screenshot"`,
      );
    }
    return this.inner;
  }

  /** Where the page's viewport sits on the screen: kiosk mode fills it, but a WM could still add a border. */
  private async placement(page: Page): Promise<ViewportPlacement> {
    const [sx, sy, ow, oh, iw, ih] = await page.evaluate<number[]>(
      "[screenX, screenY, outerWidth, outerHeight, innerWidth, innerHeight]",
    );
    const side = Math.max(0, ((ow ?? 0) - (iw ?? 0)) / 2);
    return {
      offset: { x: (sx ?? 0) + side, y: (sy ?? 0) + Math.max(0, (oh ?? 0) - (ih ?? 0) - side) },
      viewport: { width: iw ?? this.screen.width, height: ih ?? this.screen.height },
    };
  }

  private async startChromium(start: EnvironmentStart): Promise<void> {
    assertChromium();
    const url = start.url!;
    await sweepBrowserLeftovers();
    this.profile = freshProfile();
    const { width, height } = this.screen;
    // Launched by Playwright like the headless browser, in the same box; only this display's socket
    // is bound into it (launch.ts).
    const launched = await launchChromium({
      hostProfile: this.profile,
      artifactsDir: artifactsDirOf(this.profile),
      args: [
        ...QUIET_CHROMIUM_FLAGS,
        "--kiosk",
        `--window-size=${width},${height}`,
        "--window-position=0,0",
        "--force-device-scale-factor=1",
      ],
      context: { headless: false, viewport: null, timeout: APP_START_TIMEOUT_MS },
      allowHosts: start.allowHosts ?? [originRule(url)],
      ...(this.display ? { display: this.display } : {}),
    });
    this.launched = launched;
    this.proxy = launched.proxy;
    this.warning = launched.warning;
    const { context } = launched;
    if (start.cookies?.length)
      await context.addCookies(start.cookies.map((c) => ({ ...c, path: c.path ?? "/" })));
    const page = context.pages()[0] ?? (await context.newPage());
    this.inner = { context, page, cdp: await context.newCDPSession(page) };
    await page.goto(url, { waitUntil: "load", timeout: APP_START_TIMEOUT_MS });
    await this.waitForWindow("chromium");
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
    const launched = this.launched;
    this.inner = this.launched = undefined;
    // The browser first (its box and proxy with it), while its display is still there.
    if (launched) await launched.close();
    for (const owned of this.procs.reverse()) await stopOwned(owned);
    this.procs = [];
    removeProfile(this.profile);
    this.profile = undefined;
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
