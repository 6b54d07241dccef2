import { Worker } from "node:worker_threads";
import { INDEX_READ_CHUNK_FILES, MAX_WATCHED_DIRS, OVERFLOW_SUSPECT_FRACTION } from "./index-limits.js";
import { packFiles } from "./pack-files.js";
import type { WatchRequest, WatchResponse, WatchWorkerData } from "./watch-protocol.js";
import { watchWorkerMain } from "./watch-worker.js";

/** The kernel's default when /proc cannot be read. */
const DEFAULT_MAX_QUEUED_EVENTS = 16_384;

async function maxQueuedEvents(): Promise<number> {
  try {
    const { readFile } = await import("node:fs/promises");
    const value = Number((await readFile("/proc/sys/fs/inotify/max_queued_events", "utf8")).trim());
    return Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_QUEUED_EVENTS;
  } catch {
    return DEFAULT_MAX_QUEUED_EVENTS;
  }
}

type Pending = (r: WatchResponse) => void;
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * The one watcher thread all workspace indexes share, started on first use. It is unref'd while idle
 * so it never keeps a CLI run alive, and ref'd while a request is outstanding so an awaited answer is
 * never lost to process exit. If the thread dies, its outstanding requests fail and the indexes,
 * told through `onLost`, drop themselves.
 */
export class WatchClient {
  private thread: Promise<Thread> | undefined;
  private nextId = 1;
  private readonly lostListeners = new Set<() => void>();

  /** `settings`: replaces the computed worker settings (tests use a tiny overflow threshold). */
  constructor(private readonly settings: Partial<WatchWorkerData> = {}) {}

  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  async request(message: WithoutId<WatchRequest>): Promise<WatchResponse> {
    const thread = await this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      thread.pending.set(id, resolve);
      thread.worker.ref();
      thread.worker.postMessage({ ...message, id });
    });
  }

  /** Stop the thread (when no workspace is indexed any more); the next request starts a new one. */
  async stop(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    if (thread !== undefined) await (await thread).worker.terminate();
  }

  private start(): Promise<Thread> {
    this.thread ??= maxQueuedEvents().then((queued) => {
      const workerData: WatchWorkerData = {
        maxDirs: MAX_WATCHED_DIRS,
        readChunkFiles: INDEX_READ_CHUNK_FILES,
        overflowSuspectEvents: Math.floor(queued / OVERFLOW_SUSPECT_FRACTION),
        ...this.settings,
      };
      // The thread runs the function's source: the package is compiled file by file and its tests run
      // the TypeScript sources, so a separate worker file would need a loader in one of the two.
      const source = `(${watchWorkerMain.toString()})(${packFiles.toString()})`;
      const worker = new Worker(source, { eval: true, workerData });
      const thread: Thread = { worker, pending: new Map() };
      worker.unref();
      worker.on("message", (m: WatchResponse) => {
        const resolve = thread.pending.get(m.id);
        thread.pending.delete(m.id);
        if (thread.pending.size === 0) worker.unref();
        resolve?.(m);
      });
      let gone = false;
      const lost = (reason: string) => {
        if (gone) return;
        gone = true;
        for (const [id, resolve] of thread.pending) resolve({ id, ok: false, reason });
        thread.pending.clear();
        if (this.thread === current) {
          this.thread = undefined;
          for (const listener of this.lostListeners) listener();
        }
      };
      worker.on("error", (err) => lost(`the watcher thread failed: ${err.message}`));
      worker.on("exit", () => lost("the watcher thread exited"));
      return thread;
    });
    const current = this.thread;
    return current;
  }
}

export const watchClient = new WatchClient();
