/**
 * Kept browsers for a test file's episodes: `size` episodes at a time, each in one of `size` running
 * Chromiums with a fresh context of its own — what a folder run does with one (SharedBrowser,
 * src/cua/env/browser-host.ts). Starting a boxed Chromium is most of a short episode's time, so a
 * file of many episodes starts two browsers instead of one per episode. Tests of the browser's own
 * life (a page that crashes it, the first launch) keep the default, a Chromium per episode.
 */
import pLimit from "p-limit";
import { type BrowserSource, SharedBrowser } from "../cua/index.js";

export interface BrowserPool {
  /** `work` with a browser no other episode is using; waits for one. */
  run<T>(work: (browsers: BrowserSource) => Promise<T>): Promise<T>;
  /** Close every browser (the file's afterAll). */
  close(): Promise<void>;
  /** Chromiums started so far (one per browser unless a page made one start again). */
  launches(): number;
}

export function browserPool(size: number): BrowserPool {
  const all = Array.from({ length: size }, () => new SharedBrowser());
  const free = [...all];
  const slot = pLimit(size);
  return {
    run: (work) =>
      slot(async () => {
        const browser = free.pop();
        if (!browser) throw new Error("browser pool: no free browser although a slot was free");
        try {
          return await work(browser);
        } finally {
          free.push(browser);
        }
      }),
    close: async () => {
      await Promise.all(all.map((b) => b.close()));
    },
    launches: () => all.reduce((n, b) => n + b.launches, 0),
  };
}
