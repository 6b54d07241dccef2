/**
 * What a browser context is busy with: top-level navigations (a form POST, a link, a popup) and the
 * requests in flight. The browser environment waits on it after an input event, so the next capture
 * sees the new page rather than a page between documents (where Chromium refuses to capture).
 */
import type { BrowserContext, Page, Request } from "playwright-core";

/**
 * How long after an input event a navigation it caused may take to show up (a form submit or link
 * click issues its request a few ms after the event on loopback; this covers a loaded 2-core machine).
 */
const NAVIGATION_GRACE_MS = 60;
/** Cap on waiting for a started navigation's load event: a slow page is captured as it is, not waited on. */
const NAVIGATION_SETTLE_MS = 5_000;
/** The network counts as quiet after this long with no request in flight (fetches a click started). */
const NETWORK_QUIET_MS = 50;
/** Cap on the network-quiet wait: a page that polls forever must not stall every step. */
const NETWORK_QUIET_CAP_MS = 1_000;

export class PageActivity {
  /** Hosts the pages themselves requested this episode (Chromium's background calls never show here). */
  readonly pageHosts = new Set<string>();
  private readonly inFlight = new Set<Request>();
  /** Settles when the latest top-level navigation or new page has loaded (or closed). */
  private navigation: Promise<void> | undefined;
  private context: BrowserContext | undefined;

  /** Record top-level navigations (they start with a navigation request) and every request in flight. */
  watch(context: BrowserContext): void {
    this.context = context;
    context.on("request", (request) => {
      this.inFlight.add(request);
      this.pageHosts.add(hostOf(request.url()));
      if (!request.isNavigationRequest()) return;
      const frame = safeFrame(request);
      if (frame && frame.parentFrame() === null) this.navigation = loaded(frame.page(), request);
    });
    const done = (request: Request) => void this.inFlight.delete(request);
    context.on("requestfinished", done);
    context.on("requestfailed", done);
  }

  /** A new page (popup, target=_blank): settled once `ready` is (it loaded and captures read it). */
  opened(ready: Promise<unknown>): void {
    this.navigation = ready.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * After an input event: let a navigation or fetch it started land (each wait capped).
   * `pageTargets` counts the pages the browser itself has open right now.
   */
  async afterInput(pageTargets?: () => Promise<number>): Promise<void> {
    if (!this.navigation) await sleep(NAVIGATION_GRACE_MS);
    if (!this.navigation && pageTargets) await this.unreportedPage(pageTargets);
    await this.settleNavigation();
    await this.networkQuiet();
  }

  /**
   * A popup the browser has already made may reach Playwright's "page" event only after the grace
   * (a loaded machine): while the browser counts more pages than the context has reported, wait
   * (capped) for the report or for the counts to agree (a closing page leaves both lists at its own
   * pace), rather than guess a longer grace.
   */
  private async unreportedPage(pageTargets: () => Promise<number>): Promise<void> {
    const context = this.context;
    if (!context) return;
    let reported = false;
    const onPage = (): void => {
      reported = true;
    };
    context.on("page", onPage); // before the first count, so a report in between is not missed
    try {
      const deadline = performance.now() + NAVIGATION_SETTLE_MS;
      while (!reported && performance.now() < deadline) {
        if ((await pageTargets()) <= context.pages().length) return;
        await sleep(25);
      }
    } catch {
      // The page asked closed meanwhile: nothing to wait for.
    } finally {
      context.off("page", onPage);
    }
  }

  /** Wait (capped) for the latest navigation seen to load; a no-op when none is pending. */
  async settleNavigation(): Promise<void> {
    const pending = this.navigation;
    if (!pending) return;
    await Promise.race([pending, sleep(NAVIGATION_SETTLE_MS)]);
    if (this.navigation === pending) this.navigation = undefined;
  }

  /** A new episode: forget the last one's requests and hosts. */
  clear(): void {
    this.navigation = undefined;
    this.inFlight.clear();
    this.pageHosts.clear();
  }

  /**
   * Wait until no request has been in flight for NETWORK_QUIET_MS, capped at NETWORK_QUIET_CAP_MS.
   * Also before an episode's first capture: pictures a page's setup asked for (CSS `content: url()`
   * icons do not hold the load event) arrive a little later when every request is held and judged.
   */
  async networkQuiet(): Promise<void> {
    const deadline = performance.now() + NETWORK_QUIET_CAP_MS;
    let quietSince = performance.now();
    while (performance.now() < deadline) {
      if (this.inFlight.size > 0) quietSince = performance.now();
      else if (performance.now() - quietSince >= NETWORK_QUIET_MS) return;
      await sleep(10);
    }
  }
}

/**
 * Settles when `page` loads the document `request` asks for, or closes; at once when the answer will
 * never load a document (no response, 204, a download). Registered before the new document commits,
 * so its load event cannot be missed.
 */
export function loaded(page: Page, request: Request): Promise<void> {
  return new Promise<void>((resolve) => {
    page.once("load", () => resolve());
    page.once("close", () => resolve());
    request.response().then(
      (r) => (r === null || r.status() === 204 || isDownload(r.headers()) ? resolve() : undefined),
      () => resolve(),
    );
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/** A request's frame; a service worker's requests have none (Playwright throws). */
function safeFrame(request: Request) {
  try {
    return request.frame();
  } catch {
    return undefined;
  }
}

/** A navigation answered with an attachment never loads a new document. */
function isDownload(headers: Record<string, string>): boolean {
  return /attachment/i.test(headers["content-disposition"] ?? "");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
