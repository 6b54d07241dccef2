/**
 * The browser environment: Debian's Chromium, headless, driven by playwright-core. One fresh profile
 * per episode, viewport = screen and device scale factor 1 (screenshot px = CSS px = input coordinates),
 * every request through the egress allowlist proxy, cookies injected before the first load.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { describeAction } from "../actions.js";
import {
  type Capture,
  type Environment,
  type EnvironmentStart,
  type HeldRequest,
  type ObserveKind,
  PageHazardError,
  type Probe,
  type ProbeQuery,
  type RequestHook,
  type ScreenAction,
  type Size,
  type UiElement,
} from "../types.js";
import { captureFrame } from "./browser-capture.js";
import { type BrowserSource, type EpisodeBrowser, ownBrowser } from "./browser-host.js";
import { PageInput } from "./browser-input.js";
import { assertChromium, pageRefusals } from "./chromium.js";
import { DEFAULT_DOM_BUDGET } from "./dom.js";
import { type EgressProxy, type EgressRefusal, originRule } from "./egress.js";
import { evaluateGuarded, loadFirstPage, revealGuarded } from "./guarded-page.js";
import { browserPid } from "./launch.js";
import { PageActivity } from "./page-activity.js";
import type { DownloadRecord } from "./page-downloads.js";
import { type PageEvents, PageGuard, type PageGuardOptions, RENDERER_HEAP_MB } from "./page-guard.js";
import { probeThroughCdp } from "./probe.js";
import { RequestGate } from "./request-gate.js";
import { RequestHold } from "./request-hold.js";

/** Where a reset's time went: getting a browser for the episode, then loading its first page. */
export interface BrowserStartup {
  /** False when a running browser was reused (only a new context was made). */
  launched: boolean;
  browserMs: number;
  loadMs: number;
}

export const DEFAULT_SCREEN: Size = { width: 1400, height: 800 };
/** Capture attempts while a page is being swapped ("Not attached to an active page"), and the pause between. */
const CAPTURE_ATTEMPTS = 5;
const CAPTURE_RETRY_MS = 100;

export interface BrowserEnvironmentOptions {
  screen?: Size;
  /** Character budget of the cleaned DOM observation. */
  domBudget?: number;
  /** Caps on what a page may do (page-guard.ts) and where its downloads are kept (the episode folder). */
  guard?: PageGuardOptions;
  /** The renderer's JavaScript heap cap in MiB (default RENDERER_HEAP_MB). */
  heapMb?: number;
  /**
   * Where each episode's browser comes from: its own Chromium (the default), or a SharedBrowser that
   * a folder run keeps across its episodes, a fresh context each (browser-host.ts).
   */
  browsers?: BrowserSource;
  /**
   * Hold state-changing requests (default true). Only the benchmark turns it off, to measure what
   * the consequence gate costs against a browser without it; createEnvironment never does.
   */
  consequenceGate?: boolean;
}

export class BrowserEnvironment implements Environment {
  readonly kind = "browser" as const;
  readonly screen: Size;
  private readonly domBudget: number;
  private proxy: EgressProxy | undefined;
  private context: BrowserContext | undefined;
  private page: Page | undefined;
  private cdp: CDPSession | undefined;
  private launched: EpisodeBrowser | undefined;
  private readonly browsers: BrowserSource;
  /** How the last reset's time went: getting a browser (a launch, or a context), loading the page. */
  private startup: BrowserStartup | undefined;
  /** Set by reset: the next capture is the episode's first (it waits for the network to go quiet). */
  private firstCapture = false;
  private warning: string | undefined;
  private readonly activity = new PageActivity();
  /** Input to the page the environment follows, with the pointer's resting place. */
  private readonly input = new PageInput(() => this.live().page);
  private readonly guard: PageGuard;
  private readonly heapMb: number;
  /** The consequence gate: state-changing requests held until a rule or the approver allows them. */
  private readonly requests = new RequestGate();
  /** This episode's hold on the browser's requests (detached at close: a shared browser outlives it). */
  private hold: RequestHold | undefined;
  private readonly holdRequests: boolean;

  constructor(options: BrowserEnvironmentOptions = {}) {
    this.screen = options.screen ?? DEFAULT_SCREEN;
    this.domBudget = options.domBudget ?? DEFAULT_DOM_BUDGET;
    this.guard = new PageGuard(options.guard);
    this.heapMb = options.heapMb ?? RENDERER_HEAP_MB;
    this.holdRequests = options.consequenceGate ?? true;
    this.browsers = options.browsers ?? ownBrowser;
  }

  /** Where the last reset's time went (result.json's timing). */
  get lastStartup(): BrowserStartup | undefined {
    return this.startup;
  }

  /** What the page did this episode: dialogs dismissed, popups opened and closed, a crash. */
  get pageEvents(): PageEvents {
    return { ...this.guard.events };
  }

  /** This episode's downloads (saved in the guard's downloadsDir, if it has one). */
  get downloads(): readonly DownloadRecord[] {
    return [...this.guard.downloads];
  }

  /**
   * Requests the allowlist refused during this episode (what a safety check or a report reads), without
   * Chromium's own update and sign-in calls unless the page asked for those hosts too.
   */
  get refusals(): readonly EgressRefusal[] {
    return pageRefusals(this.proxy?.refusals ?? [], this.activity.pageHosts);
  }

  /**
   * The host directory Playwright was given as --user-data-dir (removed on the next reset and on
   * close). A boxed browser keeps its real profile in the box's private /tmp (launch.ts, BOX_PROFILE).
   */
  get userDataDir(): string | undefined {
    return this.launched?.profile;
  }

  /** This episode's held state-changing requests, with what became of each. */
  get heldRequests(): readonly HeldRequest[] {
    return [...this.requests.held];
  }

  /** Who is asked about a state-changing request no task rule allows (default: refused). */
  approveRequests(hook: RequestHook): void {
    this.requests.setApprover(hook);
  }

  /** Why the browser runs with less than the full box, if it does (result.json's sandbox_warning). */
  get sandboxWarning(): string | undefined {
    return this.warning;
  }

  /** The Chromium browser process (host pid), while it runs. */
  get browserPid(): number | undefined {
    return this.launched ? browserPid(this.launched.box) : undefined;
  }

  async reset(start: EnvironmentStart): Promise<void> {
    if (!start.url) throw new Error("browser environment: reset needs start.url (the task's first page)");
    assertChromium();
    await this.closeBrowser();
    // A rule that does not parse is the task's mistake: said before any browser starts.
    this.requests.configure(start.url, start.allowRequests);
    this.launched = await this.browsers.open({
      heapMb: this.heapMb,
      context: { viewport: this.screen, screen: this.screen, deviceScaleFactor: 1, acceptDownloads: true },
      allowHosts: start.allowHosts ?? [originRule(start.url)],
    });
    this.guard.clear(this.launched.artifactsDir);
    const loading = performance.now();
    this.proxy = this.launched.proxy;
    this.warning = this.launched.warning;
    this.context = this.launched.context;
    // Held from the first request on: the hold is on before the first page loads.
    if (this.holdRequests) {
      this.proxy.onWebSocket = (ws) =>
        this.requests.judge({ kind: "websocket", method: "WS", url: ws.url, bodyBytes: null });
      this.hold = new RequestHold(this.requests);
      await this.hold.attach(this.context);
    } else this.proxy.onWebSocket = async () => true;
    if (start.cookies && start.cookies.length > 0) {
      await this.context.addCookies(start.cookies.map((c) => ({ ...c, path: c.path ?? "/" })));
    }
    // A popup or target=_blank becomes the page the user sees, as it would on a real screen (the
    // guard closes those past its cap). Settled once the new page has loaded and captures read it.
    const launched = this.launched;
    this.guard.watch(
      this.context,
      (p) => {
        this.activity.opened(Promise.all([p.waitForLoadState("load"), this.follow(p)]));
      },
      () => launched.deathCause(),
    );
    this.activity.watch(this.context);
    const page = this.context.pages()[0] ?? (await this.context.newPage());
    await this.follow(page);
    await loadFirstPage(this.guard, page, start.url);
    this.firstCapture = true;
    this.startup = {
      launched: this.launched.launched,
      browserMs: this.launched.startMs,
      loadMs: performance.now() - loading,
    };
  }

  /**
   * A capture taken while a page is being replaced (a form POST, a link, a popup closing) fails in
   * Chromium: "Not attached to an active page", "Unable to capture screenshot", or a closed target.
   * Wait for any navigation in progress, then re-resolve the current page on each attempt.
   */
  async capture(observe: ObserveKind): Promise<Capture> {
    if (this.firstCapture) {
      // The episode's first look: what the first page and its setup asked for has arrived (capped).
      this.firstCapture = false;
      await this.guard.race(this.activity.networkQuiet());
    }
    let last: unknown;
    for (let attempt = 1; attempt <= CAPTURE_ATTEMPTS; attempt++) {
      await this.guard.race(this.activity.settleNavigation());
      try {
        return await this.guard.race(
          captureFrame(this.live(), this.screen, this.domBudget, observe),
          `a "${observe}" capture`,
        );
      } catch (err) {
        // No browser at all (never reset, or closed) is not a page swap, nor is a hostile page.
        if (!this.context || err instanceof PageHazardError) throw err;
        last = err;
        await sleep(CAPTURE_RETRY_MS);
      }
    }
    const cause = last instanceof Error ? last.message.split("\n")[0] : String(last);
    throw new Error(
      `browser environment: "${observe}" capture failed ${CAPTURE_ATTEMPTS} times while the page kept changing or closed (last: ${cause}) — the page may be stuck navigating; check the task's app or call reset()`,
    );
  }

  async act(action: ScreenAction): Promise<void> {
    const what = describeAction(action);
    this.requests.acting(what);
    try {
      await this.actOnPage(action);
    } finally {
      this.requests.acted(what);
    }
  }

  private async actOnPage(action: ScreenAction): Promise<void> {
    const { page } = this.live();
    try {
      await this.guard.race(this.input.send(action), `the ${action.kind} action`);
    } catch (err) {
      if (err instanceof PageHazardError) throw err;
      // A click that closes its own page (window.close() in a popup) can end the page before
      // Playwright's click returns: the input landed, and the page below is what the user sees now.
      if (!(page.isClosed() && /has been closed/.test((err as Error).message))) throw err;
    }
    // An input event may have started a navigation (form submit, link, Enter) or a fetch: let it land,
    // so the next capture sees the new page rather than a page between documents.
    if (action.kind === "wait" || action.kind === "move" || action.kind === "scroll")
      return this.guard.check();
    await this.guard.race(this.activity.afterInput(() => this.pageTargets()));
  }

  /** Pages the browser has open, reported to Playwright or not yet (CDP's own list of targets). */
  private async pageTargets(): Promise<number> {
    const { cdp } = this.live();
    // This episode's context only: a shared browser holds other contexts' pages (its default one's).
    const [{ targetInfo }, { targetInfos }] = await Promise.all([
      cdp.send("Target.getTargetInfo"),
      cdp.send("Target.getTargets"),
    ]);
    return targetInfos.filter((t) => t.type === "page" && t.browserContextId === targetInfo.browserContextId)
      .length;
  }

  /**
   * What a press at a point, or a key on the focus, would activate in the current page (the gate's
   * reading). For a point, the pointer goes there first and the page gets a frame to react, then
   * the page is read: what a page shows under a resting pointer (hover menus, or a "Save" that turns
   * into "Delete account" on mousemove) is what the press will meet, since the press does not move.
   * A page that changes later still meets the consequence gate: what it changes is held there.
   */
  async probe(query: ProbeQuery): Promise<Probe> {
    if (!this.page || !this.cdp) return { ok: false, reason: "the browser has no page open" };
    const read = async () => {
      // The pointer goes first; the reading waits for the page's next frame (probe.ts).
      if (query.kind === "point") await this.input.moveTo(query.x, query.y);
      return probeThroughCdp(this.live().cdp, query);
    };
    return this.guard.race(read(), "the confirmation gate's reading of the page");
  }

  /** Scroll an element listed offscreen into view (click_element on it). */
  async reveal(element: UiElement): Promise<void> {
    await revealGuarded(this.guard, this.live(), element);
  }

  /** Evaluate a script in the current page (tests and graders read page state with it). */
  async evaluate<T>(script: string): Promise<T> {
    return evaluateGuarded<T>(this.guard, this.live().page, script);
  }

  async close(): Promise<void> {
    await this.closeBrowser();
    this.proxy = undefined;
  }

  private async follow(page: Page): Promise<void> {
    // Page and session change together: a capture must never pair the new page with the old session.
    const cdp = await page.context().newCDPSession(page);
    this.page = page;
    this.cdp = cdp;
    this.input.reset(); // each page's mouse starts at its corner
    page.once("close", () => {
      if (this.page !== page) return;
      const rest = this.context?.pages().filter((p) => p !== page) ?? [];
      const last = rest.at(-1);
      if (last) void this.follow(last);
      else this.page = this.cdp = undefined;
    });
  }

  private live(): { page: Page; cdp: CDPSession } {
    if (!this.page || !this.cdp) {
      throw new Error("browser environment: no page — call reset({ url }) before capture/act");
    }
    return { page: this.page, cdp: this.cdp };
  }

  private async closeBrowser(): Promise<void> {
    const launched = this.launched;
    this.launched = this.context = this.page = this.cdp = undefined;
    this.input.reset();
    this.activity.clear();
    // Downloads in progress finish first, so the episode's folder holds whole files.
    await this.guard.settle();
    this.guard.expectClose();
    // The hold's browser-wide session goes with the episode (a shared browser keeps running).
    await this.hold?.detach();
    this.hold = undefined;
    // Its own browser goes with its proxy and box (the profile in the box's /tmp with it); a shared
    // one keeps running unless the page misbehaved.
    if (launched) await launched.close({ discard: this.guard.hazard !== undefined });
  }
}
