/**
 * Pages that misbehave, handled so the episode ends cleanly and the host stays healthy: dialogs are
 * dismissed and counted (a loop of them ends the episode), popups past a few open pages are closed
 * and counted (a flood ends it), a navigation that never loads ends it, a renderer crash (out of
 * memory under the heap cap, or killed) ends it, a page whose scripts never yield (the renderer
 * answers nothing) ends it, a flood of console messages or of navigations (pushState/replaceState)
 * ends it, the browser itself dying under the page (its box's memory limit) ends it, and downloads
 * are saved into the episode's folder only, up to a size (./page-downloads.ts). Each ending is a PageHazardError: stop
 * reason `page_misbehaved`, with the kind in its detail.
 */
import type { BrowserContext, Dialog, Page } from "playwright-core";
import { type PageHazard, PageHazardError } from "../types.js";
import { loaded } from "./page-activity.js";
import { type DownloadRecord, MAX_DOWNLOAD_BYTES, PageDownloads } from "./page-downloads.js";

/** Dialogs in one episode that make a loop: a real app asks a handful of questions, not twenty. */
export const DIALOG_LOOP_AT = 20;
/** Pages open at once before new ones are closed as they open (a page, a popup, one more). */
export const MAX_OPEN_PAGES = 3;
/** Pages opened in one episode that make a flood (closed ones included). */
export const POPUP_FLOOD_AT = 10;
/** A navigation not loaded after this long never will (loopback apps load in well under a second). */
export const NAVIGATION_TIMEOUT_MS = 15_000;
/**
 * How long a page may take to answer a capture, an input event or an evaluation. A busy loaded machine
 * answers in seconds; a page whose scripts loop without end never does, and the episode would sit
 * until its wall clock ran out.
 */
export const PAGE_ANSWER_TIMEOUT_MS = 30_000;
/** A renderer's JavaScript heap cap (MiB): a page allocating without end crashes its renderer, not the host. */
export const RENDERER_HEAP_MB = 1024;
/**
 * Console messages within one second that make a flood. Every message crosses the DevTools pipe, and
 * Chromium queues what the harness has not read yet in the browser process: measured here, a page
 * logging 10 kB strings in a loop grew the browser to its box's 2 GiB limit in 10 s, and the memory
 * limit killed the whole browser. A chatty app logs tens a second.
 */
export const CONSOLE_FLOOD_PER_S = 1000;
/**
 * Main-frame navigations (pushState and replaceState included) within NAVIGATION_FLOOD_WINDOW_MS that
 * make a flood: Chromium's own flood limit (200 in 10 s, after which it ignores the calls and says
 * "Throttling navigation to prevent the browser from hanging"). No app changes its URL that often.
 */
export const NAVIGATION_FLOOD_AT = 200;
export const NAVIGATION_FLOOD_WINDOW_MS = 10_000;

export interface PageGuardOptions {
  dialogLoopAt?: number;
  popupFloodAt?: number;
  maxOpenPages?: number;
  navigationTimeoutMs?: number;
  answerTimeoutMs?: number;
  maxDownloadBytes?: number;
  /** Where downloads are saved (the episode's folder); without it they are counted, then discarded. */
  downloadsDir?: string;
}

/** What the page did this episode, for result.json. */
export interface PageEvents {
  dialogs: number;
  popups: number;
  popups_closed: number;
  downloads_cancelled: number;
  crashed: boolean;
}

export class PageGuard {
  readonly events: PageEvents = emptyEvents();
  /** This episode's downloads, saved in the episode's folder (page-downloads.ts). */
  private readonly saver: PageDownloads;
  private tripped: PageHazard | undefined;
  private wake: (() => void) | undefined;
  private trip$ = this.nextTrip();
  private pendingLoad: { page: Page; started: number } | undefined;
  private readonly o: Required<Omit<PageGuardOptions, "downloadsDir">> & { downloadsDir?: string };
  /** Set while the harness itself closes the browser: the context's close is then no hazard. */
  private closing = false;

  constructor(options: PageGuardOptions = {}) {
    this.o = {
      dialogLoopAt: options.dialogLoopAt ?? DIALOG_LOOP_AT,
      popupFloodAt: options.popupFloodAt ?? POPUP_FLOOD_AT,
      maxOpenPages: options.maxOpenPages ?? MAX_OPEN_PAGES,
      navigationTimeoutMs: options.navigationTimeoutMs ?? NAVIGATION_TIMEOUT_MS,
      answerTimeoutMs: options.answerTimeoutMs ?? PAGE_ANSWER_TIMEOUT_MS,
      maxDownloadBytes: options.maxDownloadBytes ?? MAX_DOWNLOAD_BYTES,
      ...(options.downloadsDir ? { downloadsDir: options.downloadsDir } : {}),
    };
    this.saver = new PageDownloads(this.o, {
      cancelled: () => void this.events.downloads_cancelled++,
      tooLarge: (detail) => this.trip({ kind: "download_too_large", detail }),
    });
  }

  /** This episode's downloads (saved in the guard's downloadsDir, if it has one). */
  get downloads(): DownloadRecord[] {
    return this.saver.records;
  }

  get navigationTimeoutMs(): number {
    return this.o.navigationTimeoutMs;
  }

  /** The hazard that ends this episode, if one happened (a load past its timeout counts from now). */
  get hazard(): PageHazard | undefined {
    const pending = this.pendingLoad;
    if (!this.tripped && pending && performance.now() - pending.started > this.o.navigationTimeoutMs)
      this.trip({
        kind: "load_timeout",
        detail: `${pending.page.url()} did not finish loading within ${this.o.navigationTimeoutMs / 1000} s`,
      });
    return this.tripped;
  }

  /** Throw the episode's hazard, if any. */
  check(): void {
    const hazard = this.hazard;
    if (hazard) throw new PageHazardError(hazard);
  }

  /**
   * `work`, unless the page misbehaves first (an input event that never returns under an alert loop)
   * or does not answer within the answer timeout (its scripts loop without end).
   */
  async race<T>(work: Promise<T>, what = "the page"): Promise<T> {
    // Abandoned when the hazard wins (or has already won: then it is never awaited at all); its
    // rejection is expected then, and must not surface as an unhandled rejection.
    work.catch(() => undefined);
    this.check();
    const ms = this.o.answerTimeoutMs;
    const timer = setTimeout(
      () =>
        this.trip({
          kind: "page_unresponsive",
          detail: `${what} did not answer within ${ms / 1000} s (the page's scripts may never yield)`,
        }),
      ms,
    );
    try {
      const result = await Promise.race([work, this.trip$.then(() => undefined)]);
      this.check();
      return result as T;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Watch a context: every page's dialogs, crashes, downloads and loads; a new page beyond the open
   * cap is closed as it opens, and the others are handed to `accepted` (the page the user now sees).
   */
  watch(context: BrowserContext, accepted: (page: Page) => void, gone?: () => string): void {
    this.closing = false;
    // The browser going away while nobody closed it: the page took it down (its box's memory limit
    // killed it, measured under a console flood). `gone` says why, when the box can tell.
    context.on("close", () => {
      if (this.closing) return;
      this.events.crashed = true;
      this.trip({
        kind: "page_crashed",
        detail: `the browser itself died under the page${gone ? ` (${gone()})` : ""}`,
      });
    });
    for (const page of context.pages()) this.guardPage(page);
    context.on("page", (page) => {
      this.guardPage(page);
      this.events.popups++;
      if (this.events.popups >= this.o.popupFloodAt)
        this.trip({ kind: "popup_flood", detail: `the page opened ${this.events.popups} windows` });
      if (context.pages().length > this.o.maxOpenPages) {
        this.events.popups_closed++;
        void page.close().catch(() => undefined);
        return;
      }
      accepted(page);
    });
    context.on("request", (request) => {
      if (!request.isNavigationRequest()) return;
      let frame: ReturnType<typeof request.frame>;
      try {
        frame = request.frame();
      } catch {
        return; // a service worker's request
      }
      if (frame.parentFrame() !== null) return;
      const pending = { page: frame.page(), started: performance.now() };
      this.pendingLoad = pending;
      void loaded(pending.page, request).then(() => {
        if (this.pendingLoad === pending) this.pendingLoad = undefined;
      });
    });
  }

  /**
   * Downloads still being saved (close waits for them, so result.json lists whole files), for a few
   * seconds at most: an endless download is cut off when the browser closes.
   */
  settle(): Promise<void> {
    return this.saver.settle();
  }

  /** The harness is closing the browser now (its context's close is expected). */
  expectClose(): void {
    this.closing = true;
  }

  private guardPage(page: Page): void {
    const consoleBurst = new Burst(CONSOLE_FLOOD_PER_S, 1000);
    page.on("console", () => {
      if (consoleBurst.add(performance.now()))
        this.trip({
          kind: "console_flood",
          detail: `${page.url()} logged ${CONSOLE_FLOOD_PER_S} console messages within 1 s`,
        });
    });
    const navigations = new Burst(NAVIGATION_FLOOD_AT, NAVIGATION_FLOOD_WINDOW_MS);
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame() || !navigations.add(performance.now())) return;
      this.trip({
        kind: "navigation_flood",
        detail: `${page.url()} navigated ${NAVIGATION_FLOOD_AT} times within ${NAVIGATION_FLOOD_WINDOW_MS / 1000} s (pushState/replaceState or reloads in a loop)`,
      });
    });
    page.on("dialog", (dialog) => this.onDialog(dialog));
    page.on("crash", () => {
      this.events.crashed = true;
      this.trip({
        kind: "page_crashed",
        detail: `the renderer of ${page.url()} crashed (out of memory under the ${RENDERER_HEAP_MB} MiB heap cap, or killed)`,
      });
    });
    page.on("download", (download) => this.saver.add(download));
  }

  private onDialog(dialog: Dialog): void {
    this.events.dialogs++;
    // Leaving is what a person who closes a "leave this page?" box wants; every other box is cancelled.
    const answer = dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss();
    void answer.catch(() => undefined);
    if (this.events.dialogs >= this.o.dialogLoopAt)
      this.trip({
        kind: "dialog_loop",
        detail: `the page opened ${this.events.dialogs} dialogs (the last: ${dialog.type()} "${dialog.message().slice(0, 60)}")`,
      });
  }

  /** A new episode, whose downloads arrive in `arriving`: no hazard, no counts. */
  clear(arriving?: string): void {
    Object.assign(this.events, emptyEvents());
    this.saver.clear(arriving);
    this.tripped = this.pendingLoad = undefined;
    this.trip$ = this.nextTrip();
  }

  /** Record `hazard` (the first one wins) and wake anything racing against it. */
  trip(hazard: PageHazard): void {
    if (this.tripped) return;
    this.tripped = hazard;
    this.wake?.();
  }

  private nextTrip(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }
}

/** Events in a sliding window: `add` says whether `limit` of them fell within the last `windowMs`. */
export class Burst {
  private readonly times: number[] = [];
  private first = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  add(now: number): boolean {
    this.times.push(now);
    while (this.first < this.times.length && (this.times[this.first] as number) <= now - this.windowMs)
      this.first++;
    // Drop what slid out once it is most of the array, so memory stays within the limit.
    if (this.first > this.limit) {
      this.times.splice(0, this.first);
      this.first = 0;
    }
    return this.times.length - this.first >= this.limit;
  }
}

function emptyEvents(): PageEvents {
  return { dialogs: 0, popups: 0, popups_closed: 0, downloads_cancelled: 0, crashed: false };
}
