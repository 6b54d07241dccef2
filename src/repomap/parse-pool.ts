/**
 * Parsing on worker threads, for cold builds: tree-sitter's parse is nearly all of a cold map's
 * time, and it is synchronous, so one thread per core divides it. Each worker loads tags.ts itself
 * (its own tree-sitter heap) and answers {path, text} with the file's tags. A worker that fails
 * hands its files back to the calling thread, which parses them in-process: a pool is a speed-up,
 * never a new way for a map to fail.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { type FileTags, tagsOf } from "./tags.js";

/** Below this many files to parse, starting workers (each loads tree-sitter: ~60 ms) costs more than it saves. */
export const POOL_MIN_FILES = 200;
/** Threads beyond this only contend for memory bandwidth and WASM heaps on the machines we run. */
export const MAX_PARSE_WORKERS = 4;

type Reply = { id: number; tags: FileTags | null } | { id: number; error: string };

/**
 * The worker's program, run as source (eval): the package is compiled file by file and its tests run
 * the TypeScript sources, so the worker imports tags.ts through tsx's loader when it is not compiled.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const ready = (async () => {
  if (workerData.tsxUrl) (await import(workerData.tsxUrl)).register();
  return import(workerData.tagsUrl);
})();
parentPort.on("message", async ({ id, path, text }) => {
  try {
    const { tagsOf } = await ready;
    parentPort.postMessage({ id, tags: (await tagsOf(path, text)) ?? null });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.stack || err) });
  }
});
`;

interface Pending {
  path: string;
  text: string;
  resolve: (tags: FileTags | undefined) => void;
  reject: (err: unknown) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  dead: boolean;
}

/** How many workers suit this machine: one per core, at most MAX_PARSE_WORKERS. */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(MAX_PARSE_WORKERS, availableParallelism()));
}

export class ParsePool {
  private readonly threads: Thread[] = [];
  private nextId = 1;

  constructor(size: number) {
    const source = import.meta.url.endsWith(".ts");
    const tagsUrl = new URL(`./tags${source ? ".ts" : ".js"}`, import.meta.url).href;
    // Resolved here, where the package's own dependencies are: an eval'd worker resolves from the cwd.
    const tsxUrl = source
      ? pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api")).href
      : undefined;
    for (let i = 0; i < size; i++) {
      const thread: Thread = {
        worker: new Worker(WORKER_SOURCE, { eval: true, workerData: { tagsUrl, tsxUrl } }),
        pending: new Map(),
        dead: false,
      };
      thread.worker.on("message", (reply: Reply) => {
        const job = thread.pending.get(reply.id);
        thread.pending.delete(reply.id);
        if (!job) return;
        if ("error" in reply) this.inProcess(job);
        else job.resolve(reply.tags ?? undefined);
      });
      const lost = () => {
        thread.dead = true;
        const jobs = [...thread.pending.values()];
        thread.pending.clear();
        for (const job of jobs) this.inProcess(job);
      };
      thread.worker.on("error", lost);
      thread.worker.on("exit", lost);
      this.threads.push(thread);
    }
  }

  /** The tags of one file, from the least busy live worker (or this thread when none is left). */
  tags(path: string, text: string): Promise<FileTags | undefined> {
    return new Promise((resolve, reject) => {
      const job: Pending = { path, text, resolve, reject };
      const live = this.threads.filter((t) => !t.dead);
      if (live.length === 0) return this.inProcess(job);
      const thread = live.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const id = this.nextId++;
      thread.pending.set(id, job);
      thread.worker.postMessage({ id, path, text });
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.threads.map((t) => {
        t.dead = true;
        return t.worker.terminate();
      }),
    );
  }

  private inProcess(job: Pending): void {
    tagsOf(job.path, job.text).then(job.resolve, job.reject);
  }
}
