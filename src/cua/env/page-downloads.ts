/**
 * A page's downloads, kept in the episode's folder only: saved under a plain file name, 20 at most,
 * and watched while they arrive (they land on the host's disk, outside the box's memory limit): past
 * the episode's byte cap every download in progress is cancelled and the guard ends the episode.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Download } from "playwright-core";

/** Downloads kept per episode; later ones are cancelled and counted. */
export const MAX_DOWNLOADS = 20;
/** How long closing an episode waits for downloads still arriving. */
export const DOWNLOAD_SETTLE_MS = 5_000;
/**
 * Bytes of downloads an episode may write (they land on the host's disk, outside the box's memory
 * limit): an endless or huge download is cancelled there and ends the episode.
 */
export const MAX_DOWNLOAD_BYTES = 256 * 1024 ** 2;
/** How often the size of downloads in progress is read. */
const DOWNLOAD_POLL_MS = 200;

export interface DownloadRecord {
  /** The file's name as saved (the page's suggestion, made safe). */
  name: string;
  /** Where it was saved; null when the episode keeps no folder or the download failed. */
  path: string | null;
  bytes: number;
  url: string;
}

/** What the downloads tell the guard: one was cancelled, or together they grew too large. */
interface DownloadHooks {
  cancelled(): void;
  tooLarge(detail: string): void;
}

export class PageDownloads {
  readonly records: DownloadRecord[] = [];
  private saving: Promise<unknown>[] = [];
  /** Where this episode's downloads land while they arrive (Playwright's artifacts folder). */
  private arriving: string | undefined;
  private inFlight = new Set<Download>();
  private savedBytes = 0;
  private sizeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly o: { downloadsDir?: string; maxDownloadBytes: number },
    private readonly hooks: DownloadHooks,
  ) {}

  /** A download the page started: saved (or cancelled past the count), its size watched. */
  add(download: Download): void {
    this.saving.push(this.onDownload(download));
  }

  /** Downloads still being saved, for at most DOWNLOAD_SETTLE_MS. */
  async settle(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise((resolve) => {
      timer = setTimeout(resolve, DOWNLOAD_SETTLE_MS);
    });
    await Promise.race([Promise.allSettled(this.saving), cap]);
    clearTimeout(timer);
  }

  /** A new episode, whose downloads arrive in `arriving`. */
  clear(arriving?: string): void {
    this.records.length = 0;
    this.arriving = arriving;
    this.inFlight = new Set();
    this.savedBytes = 0;
    clearInterval(this.sizeTimer);
    this.sizeTimer = undefined;
    this.saving = [];
  }

  private async onDownload(download: Download): Promise<void> {
    const dir = this.o.downloadsDir;
    if (this.records.length >= MAX_DOWNLOADS) {
      this.hooks.cancelled();
      return download.cancel().catch(() => undefined);
    }
    const record: DownloadRecord = {
      name: safeFileName(download.suggestedFilename()),
      path: null,
      bytes: 0,
      url: download.url(),
    };
    this.records.push(record);
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
        this.hooks.cancelled();
        void d.cancel().catch(() => undefined);
      }
      this.hooks.tooLarge(
        `the page's downloads passed ${Math.round(this.o.maxDownloadBytes / 1024 ** 2)} MiB (cancelled)`,
      );
    }, DOWNLOAD_POLL_MS);
    this.sizeTimer.unref();
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
