/**
 * The Chromium inside an X11 desktop: launched by Playwright in the same box as the headless browser
 * (only its display's socket bound in), kiosk mode, reached over CDP for the accessibility tree,
 * set-of-mark, DOM and the gate's reading. It gets the headless browser's guards: the page guard
 * (every read of the page races it, so a page whose scripts never yield, that crashes or floods ends
 * the episode as page_misbehaved instead of holding it) and the consequence gate on its requests.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { HeldRequest, Probe, ProbeQuery, RequestHook, Size, UiElement } from "../types.js";
import { PageHazardError } from "../types.js";
import { collectElements, type ViewportPlacement } from "./a11y.js";
import {
  artifactsDirOf,
  assertChromium,
  freshProfile,
  QUIET_CHROMIUM_FLAGS,
  removeProfile,
} from "./chromium.js";
import { cleanDom } from "./dom.js";
import { type EgressRefusal, originRule } from "./egress.js";
import { evaluateGuarded, loadFirstPage, revealGuarded } from "./guarded-page.js";
import { browserPid, type LaunchedChromium, launchChromium } from "./launch.js";
import { type PageEvents, PageGuard, type PageGuardOptions } from "./page-guard.js";
import { probeThroughCdp } from "./probe.js";
import { RequestGate } from "./request-gate.js";
import { RequestHold } from "./request-hold.js";
import { sweepBrowserLeftovers } from "./scratch.js";

/** How long Chromium may take to start and show its window. */
export const APP_START_TIMEOUT_MS = 20_000;

export interface DesktopStart {
  url: string;
  allowHosts?: string[];
  allowRequests?: string[];
  cookies?: Array<{ name: string; value: string; domain: string; path?: string }>;
}

export class DesktopChromium {
  private profile: string | undefined;
  private launched: LaunchedChromium | undefined;
  private context: BrowserContext | undefined;
  private page: Page | undefined;
  private cdp: CDPSession | undefined;
  private readonly guard: PageGuard;
  private readonly requests = new RequestGate();
  /** The last launch's egress refusals, readable after the browser closed. */
  private lastRefusals: readonly EgressRefusal[] = [];
  private screen: Size = { width: 0, height: 0 };

  constructor(guard: PageGuardOptions = {}) {
    this.guard = new PageGuard(guard);
  }

  get pageEvents(): PageEvents {
    return { ...this.guard.events };
  }
  get heldRequests(): readonly HeldRequest[] {
    return [...this.requests.held];
  }
  approveRequests(hook: RequestHook): void {
    this.requests.setApprover(hook);
  }
  get refusals(): readonly EgressRefusal[] {
    return this.launched?.proxy.refusals ?? this.lastRefusals;
  }
  get warning(): string | undefined {
    return this.launched?.warning;
  }
  get pid(): number | undefined {
    return this.launched ? browserPid(this.launched.box) : undefined;
  }
  /** Whether a page is open to read (a desktop running another program has none). */
  get open(): boolean {
    return this.page !== undefined;
  }

  /** A new episode: no hazard (the page guard forgets the last; the gate is configured at start). */
  clear(): void {
    this.guard.clear();
    this.lastRefusals = [];
  }

  /** Throw the episode's hazard, if the page misbehaved. */
  check(): void {
    this.guard.check();
  }

  /** Start Chromium on `display` at `screen`, and load `start.url`. */
  async start(start: DesktopStart, display: string, screen: Size): Promise<void> {
    assertChromium();
    this.screen = screen;
    this.requests.configure(start.url, start.allowRequests);
    await sweepBrowserLeftovers();
    this.profile = freshProfile();
    const launched = await launchChromium({
      hostProfile: this.profile,
      artifactsDir: artifactsDirOf(this.profile),
      args: [
        ...QUIET_CHROMIUM_FLAGS,
        "--kiosk",
        `--window-size=${screen.width},${screen.height}`,
        "--window-position=0,0",
        "--force-device-scale-factor=1",
      ],
      context: { headless: false, viewport: null, timeout: APP_START_TIMEOUT_MS },
      allowHosts: start.allowHosts ?? [originRule(start.url)],
      display,
    });
    this.launched = launched;
    this.lastRefusals = launched.proxy.refusals;
    const { context } = launched;
    this.context = context;
    if (start.cookies?.length)
      await context.addCookies(start.cookies.map((c) => ({ ...c, path: c.path ?? "/" })));
    launched.proxy.onWebSocket = (ws) =>
      this.requests.judge({ kind: "websocket", method: "WS", url: ws.url, bodyBytes: null });
    await new RequestHold(this.requests).attach(context);
    // A window the page opens becomes the one read, as it is the one the kiosk shows.
    this.guard.watch(
      context,
      (p) => void this.follow(p),
      () => launched.deathCause(),
    );
    const page = context.pages()[0] ?? (await context.newPage());
    await this.follow(page);
    await loadFirstPage(this.guard, page, start.url);
  }

  /** An input action is being sent (xdotool): what the page requests meanwhile is its doing. */
  acting(action: string): void {
    this.requests.acting(action);
  }
  acted(action: string): void {
    this.requests.acted(action);
  }

  /** The page's interactive elements (a11y, som) or cleaned DOM, read within the guard. */
  async read(
    observe: "a11y" | "som" | "dom",
    domBudget: number,
  ): Promise<{ elements?: UiElement[]; dom?: string }> {
    const { page, cdp } = this.live();
    const work = async () =>
      observe === "dom"
        ? { dom: await cleanDom(page, domBudget) }
        : { elements: await collectElements(cdp, await this.placement(page)) };
    return this.guard.race(work(), `a "${observe}" capture`);
  }

  /** The gate's reading; `pointTo` moves the X pointer there first (the page then gets a frame). */
  async probe(query: ProbeQuery, pointTo: (x: number, y: number) => Promise<void>): Promise<Probe> {
    const { page, cdp } = this.live();
    const work = async (): Promise<Probe> => {
      const placement = await this.placement(page).catch((err) => {
        if (err instanceof PageHazardError) throw err;
        return undefined;
      });
      if (!placement)
        return { ok: false, reason: "the browser window's place on the screen could not be read" };
      if (query.kind === "point") await pointTo(query.x, query.y);
      return probeThroughCdp(cdp, query, placement.offset);
    };
    return this.guard.race(work(), "the confirmation gate's reading of the page");
  }

  /** Scroll an element listed offscreen into view (click_element on it). */
  async reveal(element: UiElement): Promise<void> {
    await revealGuarded(this.guard, this.live(), element);
  }

  async evaluate<T>(script: string): Promise<T> {
    return evaluateGuarded<T>(this.guard, this.live().page, script);
  }

  async close(): Promise<void> {
    const launched = this.launched;
    this.launched = this.context = this.page = this.cdp = undefined;
    this.guard.expectClose();
    if (launched) await launched.close();
    removeProfile(this.profile);
    this.profile = undefined;
  }

  /** Where the page's viewport sits on the screen: kiosk mode fills it, but a WM could still add a border. */
  private async placement(page: Page): Promise<ViewportPlacement> {
    const [sx, sy, ow, oh, iw, ih] = await this.guard.race(
      page.evaluate<number[]>("[screenX, screenY, outerWidth, outerHeight, innerWidth, innerHeight]"),
      "the browser window's place on the screen",
    );
    const side = Math.max(0, ((ow ?? 0) - (iw ?? 0)) / 2);
    return {
      offset: { x: (sx ?? 0) + side, y: (sy ?? 0) + Math.max(0, (oh ?? 0) - (ih ?? 0) - side) },
      viewport: { width: iw ?? this.screen.width, height: ih ?? this.screen.height },
    };
  }

  private async follow(page: Page): Promise<void> {
    const context = this.context;
    if (!context) return;
    const cdp = await context.newCDPSession(page);
    this.page = page;
    this.cdp = cdp;
    page.once("close", () => {
      if (this.page !== page) return;
      const last = context
        .pages()
        .filter((p) => p !== page)
        .at(-1);
      if (last) void this.follow(last);
    });
  }

  private live(): { page: Page; cdp: CDPSession } {
    if (!this.page || !this.cdp) throw new Error("x11 environment: the desktop's Chromium has no page open");
    return { page: this.page, cdp: this.cdp };
  }
}
