/**
 * Pages that misbehave, handled so the episode ends cleanly and the host stays healthy: dialogs are
 * dismissed and counted (a loop of them ends the episode), popups past a few open pages are closed
 * and counted (a flood ends it), a navigation that never loads ends it, a renderer crash (out of
 * memory under the heap cap, or killed) ends it, a page whose scripts never yield (the renderer
 * answers nothing) ends it, a flood of console messages or of navigations (pushState/replaceState)
 * ends it, the browser itself dying under the page (its box's memory limit) ends it, and downloads
 * are saved into the episode's folder only, up to a size. Each ending is a PageHazardError: stop
 * reason `page_misbehaved`, with the kind in its detail.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { BrowserContext, Dialog, Download, Page } from "playwright-core";
import { type PageHazard, PageHazardError } from "../types.js";
import { loaded } from "./page-activity.js";

/** Dialogs in one episode that make a loop: a real app asks a handful of questions, not twenty. */
export const DIALOG_LOOP_AT = 20;
/** Pages open at once before new ones are closed as they open (a page, a popup, one more). */
export const MAX_OPEN_PAGES = 3;
/** Pages opened in one episode that make a flood (closed ones included). */
export const POPUP_FLOOD_AT = 10;
/** A navigation not loaded after this long never will (loopback apps load in well under a second). */
export const NAVIGATION_TIMEOUT_MS = 15_000;
/** Downloads kept per episode; later ones are cancelled and counted. */
export const MAX_DOWNLOADS = 20;
/** How long closing an episode waits for downloads still arriving. */
export const DOWNLOAD_SETTLE_MS = 5_000;
/**
 * How long a page may take to answer a capture, an input event or an evaluation. A busy loaded machine
 * answers in seconds; a page whose scripts loop without end never does, and the episode would sit
 * until its wall clock ran out.
 */
export const PAGE_ANSWER_TIMEOUT_MS = 30_000;
/**
 * Bytes of downloads an episode may write (they land on the host's disk, outside the box's memory
 * limit): an endless or huge download is cancelled there and ends the episode.
 */
export const MAX_DOWNLOAD_BYTES = 256 * 1024 ** 2;
/** How often the size of downloads in progress is read. */
const DOWNLOAD_POLL_MS = 200;
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

export interface DownloadRecord {
  /** The file's name as saved (the page's suggestion, made safe). */
  name: string;
  /** Where it was saved; null when the episode keeps no folder or the download failed. */
  path: string | null;
  bytes: number;
  url: string;
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
  readonly downloads: DownloadRecord[] = [];
  private tripped: PageHazard | undefined;
  private wake: (() => void) | undefined;
  private trip$ = this.nextTrip();
  private pendingLoad: { page: Page; started: number } | undefined;
  private saving: Promise<unknown>[] = [];
  private readonly o: Required<Omit<PageGuardOptions, "downloadsDir">> & { downloadsDir?: string };
  /** Where this episode's downloads land while they arrive (Playwright's artifacts folder). */
  private arriving: string | undefined;
  private inFlight = new Set<Download>();
  private savedBytes = 0;
  private sizeTimer: NodeJS.Timeout | undefined;
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
   * Downloads still being saved (close waits for them, so result.json lists whole files), for at most
   * DOWNLOAD_SETTLE_MS: an endless download is cut off when the browser closes.
   */
  async settle(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise((resolve) => {
      timer = setTimeout(resolve, DOWNLOAD_SETTLE_MS);
    });
    await Promise.race([Promise.allSettled(this.saving), cap]);
    clearTimeout(timer);
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
    page.on("download", (download) => this.saving.push(this.onDownload(download)));
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

  private async onDownload(download: Download): Promise<void> {
    const dir = this.o.downloadsDir;
    if (this.downloads.length >= MAX_DOWNLOADS) {
      this.events.downloads_cancelled++;
      return download.cancel().catch(() => undefined);
    }
    const record: DownloadRecord = {
      name: safeFileName(download.suggestedFilename()),
      path: null,
      bytes: 0,
      url: download.url(),
    };
    this.downloads.push(record);
    this.inFlight.add(download);
    this.watchSize();
    try {
      if (dir) {
        mkdirSync(dir, { recursive: true });
        const path = uniquePath(dir, record.name);
        record.name = basename(path);
        await download.saveAs(path);
        record.path = path;
        record.bytes = statSync(path).size;
      } else {
        const temp = await download.path(); // inside the episode's scratch, removed with it
        record.bytes = statSync(temp).size;
      }
      this.savedBytes += record.bytes;
    } catch {
      // a cancelled or failed download stays listed, with no file
    } finally {
      this.inFlight.delete(download);
      await download.delete().catch(() => undefined); // the copy in Playwright's artifacts
    }
  }

  /**
   * While downloads arrive, read how much they wrote: past the episode's cap, every download in
   * progress is cancelled and the episode ends (a page cannot fill the host's disk).
   */
  private watchSize(): void {
    const dir = this.arriving;
    if (!dir || this.sizeTimer) return;
    this.sizeTimer = setInterval(() => {
      if (this.inFlight.size === 0) {
        clearInterval(this.sizeTimer);
        this.sizeTimer = undefined;
        return;
      }
      const total = this.savedBytes + folderBytes(dir);
      if (total <= this.o.maxDownloadBytes) return;
      for (const d of this.inFlight) {
        this.events.downloads_cancelled++;
        void d.cancel().catch(() => undefined);
      }
      this.trip({
        kind: "download_too_large",
        detail: `the page's downloads passed ${Math.round(this.o.maxDownloadBytes / 1024 ** 2)} MiB (cancelled)`,
      });
    }, DOWNLOAD_POLL_MS);
    this.sizeTimer.unref();
  }

  /** A new episode, whose downloads arrive in `arriving`: no hazard, no counts. */
  clear(arriving?: string): void {
    Object.assign(this.events, emptyEvents());
    this.downloads.length = 0;
    this.arriving = arriving;
    this.inFlight = new Set();
    this.savedBytes = 0;
    clearInterval(this.sizeTimer);
    this.sizeTimer = undefined;
    this.tripped = this.pendingLoad = undefined;
    this.saving = [];
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

/** Bytes of the files directly in `dir` (0 when it is gone). */
function folderBytes(dir: string): number {
  let total = 0;
  try {
    for (const name of readdirSync(dir)) {
      try {
        total += statSync(join(dir, name)).size;
      } catch {
        // a download finished and was removed between the listing and the stat
      }
    }
  } catch {
    return 0;
  }
  return total;
}

function emptyEvents(): PageEvents {
  return { dialogs: 0, popups: 0, popups_closed: 0, downloads_cancelled: 0, crashed: false };
}

/** A page's suggested name as a plain file name: no directories, no control characters, no dot-files. */
export function safeFileName(suggested: string): string {
  const name = basename(suggested.replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f/:*?"<>|]/g, "_")
    .replace(/^[.\s]+/, "")
    .slice(0, 100)
    .trim();
  return name === "" ? "download" : name;
}

function uniquePath(dir: string, name: string): string {
  let path = join(dir, name);
  for (let i = 2; existsSync(path); i++) path = join(dir, `${i}-${name}`);
  return path;
}
