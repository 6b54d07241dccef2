/**
 * Where the page's requests are held: CDP's Fetch domain on the BROWSER target, which pauses every
 * request of every page, frame, popup, dedicated, shared and service worker before it leaves the
 * browser (measured here: fetch, XHR, sendBeacon, form posts, a worker's and a nested worker's
 * fetches, a service worker's fetch during install, a popup's first fetch — all paused). A request that
 * only reads goes on at once; one that can change state waits for the gate (./request-gate.ts).
 * Refused, a navigation (a form submission) is answered 204 by the harness, so the page stays as it
 * was; anything else fails as a network error (net::ERR_BLOCKED_BY_CLIENT), and the server sees
 * nothing either way. WebSocket opens never reach Fetch: the egress proxy holds those (./egress.ts).
 *
 * A GET form submission looks like any navigation on the wire, so each page's
 * `Page.frameRequestedNavigation` (which names the reason, formSubmissionGet) is watched: the renderer
 * sends it before the browser starts the request.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { RequestGate } from "./request-gate.js";
import { changesState, type RequestKind } from "./request-rules.js";

/** How long a GET navigation waits for its page to say why it navigates (a form, a link, a script). */
export const NAVIGATION_REASON_GRACE_MS = 50;
/** A recorded navigation reason is forgotten after this long (its request never came). */
const REASON_TTL_MS = 10_000;

interface PausedRequest {
  requestId: string;
  resourceType: string;
  request: {
    url: string;
    method: string;
    postData?: string;
    hasPostData?: boolean;
    postDataEntries?: Array<{ bytes?: string }>;
  };
}

export class RequestHold {
  private readonly reasons = new NavigationReasons();

  constructor(private readonly gate: RequestGate) {}

  private session: CDPSession | undefined;

  /** Hold `context`'s requests from now on (call before the first page loads). */
  async attach(context: BrowserContext): Promise<void> {
    const browser = context.browser();
    if (!browser) throw new Error("request hold: the context has no browser to attach to");
    const session = await browser.newBrowserCDPSession();
    this.session = session;
    session.on("Fetch.requestPaused", (e: PausedRequest) => void this.paused(session, e));
    await session.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
    context.on("page", (page) => void this.watch(page));
    await Promise.all(context.pages().map((page) => this.watch(page)));
  }

  /**
   * Let go of the browser: its session ends, with it the interception. A browser kept for the next
   * episode (browser-host.ts, SharedBrowser) must not go on judging with this episode's rules.
   */
  async detach(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await session?.detach().catch(() => undefined);
  }

  private async watch(page: Page): Promise<void> {
    try {
      const s = await page.context().newCDPSession(page);
      s.on("Page.frameRequestedNavigation", (e: { url: string; reason: string }) =>
        this.reasons.record(e.url, e.reason),
      );
      await s.send("Page.enable");
    } catch {
      // The page closed before its session opened: it navigates no more.
    }
  }

  private async paused(session: CDPSession, e: PausedRequest): Promise<void> {
    const { requestId, request, resourceType } = e;
    const method = request.method.toUpperCase();
    const go = () => session.send("Fetch.continueRequest", { requestId }).catch(() => undefined);
    try {
      const kind = await this.kindOf(resourceType, method, request.url);
      if (!changesState(method, kind)) return void (await go());
      const allowed = await this.gate.judge({
        kind,
        method,
        url: request.url,
        bodyBytes: bodyBytes(request),
      });
      if (allowed) return void (await go());
      if (resourceType === "Document")
        await session.send("Fetch.fulfillRequest", { requestId, responseCode: 204, body: "" });
      else await session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" });
    } catch {
      // The request or the browser went away meanwhile: nothing was sent on its behalf.
    }
  }

  private async kindOf(resourceType: string, method: string, url: string): Promise<RequestKind> {
    if (resourceType === "Ping") return "beacon";
    if (resourceType !== "Document") return "request";
    if (method !== "GET" && method !== "HEAD") return "form"; // a POST navigation is a form's
    const reason = await this.reasons.take(url, NAVIGATION_REASON_GRACE_MS);
    return reason?.startsWith("formSubmission") ? "form" : "navigation";
  }
}

/** Why pages asked to navigate where, by URL: what `Page.frameRequestedNavigation` said. */
class NavigationReasons {
  private readonly byUrl = new Map<string, { reason: string; at: number }>();
  private readonly waiting = new Map<string, Array<() => void>>();

  record(raw: string, reason: string): void {
    const url = withoutFragment(raw);
    const now = performance.now();
    for (const [u, r] of this.byUrl) if (now - r.at > REASON_TTL_MS) this.byUrl.delete(u);
    this.byUrl.set(url, { reason, at: now });
    for (const wake of this.waiting.get(url) ?? []) wake();
    this.waiting.delete(url);
  }

  /** The reason recorded for `url` (consumed), waiting up to `graceMs` for it to arrive. */
  async take(raw: string, graceMs: number): Promise<string | undefined> {
    const url = withoutFragment(raw);
    if (!this.byUrl.has(url)) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          const rest = (this.waiting.get(url) ?? []).filter((w) => w !== wake);
          if (rest.length > 0) this.waiting.set(url, rest);
          else this.waiting.delete(url);
          resolve();
        }, graceMs);
        this.waiting.set(url, [...(this.waiting.get(url) ?? []), wake]);
      });
    }
    const found = this.byUrl.get(url);
    this.byUrl.delete(url);
    return found?.reason;
  }
}

/** A URL as a request carries it (the fragment never leaves the browser). */
function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash < 0 ? url : url.slice(0, hash);
}

/** The body's size from what CDP says of it; null when it does not say (a streamed or file body). */
function bodyBytes(request: PausedRequest["request"]): number | null {
  if (request.postDataEntries?.length)
    return request.postDataEntries.reduce((n, e) => n + Buffer.from(e.bytes ?? "", "base64").length, 0);
  if (request.postData !== undefined) return Buffer.byteLength(request.postData);
  return request.hasPostData ? null : 0;
}
