/**
 * `acilab worker`: takes jobs from the queue and runs them in this machine's sandboxes. BullMQ holds
 * each job under a lock the worker renews; a worker that dies stops renewing, and another worker's
 * stalled-job check hands the job on (at most `maxCrashes` times, then it fails and is reported).
 * SIGTERM drains: nothing new is taken, what is held finishes; a second SIGTERM hands it back.
 */
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { type Job, UnrecoverableError, WaitingError, Worker } from "bullmq";
import { markOwned, releaseOwned, sweepDeadOwners } from "../owners/index.js";
import { type BackendName, detectBackends } from "../sandbox/index.js";
import { connect, keys, PREFIX, reachable, redactUrl } from "./connection.js";
import { describeJob, describeResult } from "./describe.js";
import { ABORTED, executeJob } from "./execute.js";
import { acilabVersion, JOB_PROTOCOL, jobHead, parseJob, skew } from "./protocol.js";

export type WorkerBackend = BackendName;

export interface WorkerOptions {
  url: string;
  queue: string;
  concurrency: number;
  /** The backends this worker runs, its default first. */
  sandboxes: readonly WorkerBackend[];
  /** How long a job's lock lasts unrenewed: a dead worker's job is handed on after about this long. */
  lockMs: number;
  /** How often this worker looks for other workers' stalled jobs. */
  stalledMs: number;
  /** A job whose worker died this many times more is failed (a job that kills its worker every time). */
  maxCrashes: number;
  /** Servers an openai-compatible policy in a job may name. */
  policyUrls?: readonly string[];
  log: (line: string) => void;
  /** Fires to drain; a second time to hand back what is held. Default: SIGTERM and SIGINT. */
  stops?: (onStop: (count: number) => void) => () => void;
}

/** Exit codes: 0 drained, 3 refused (sandbox broken, version skew, Redis unreachable). */
export const WORKER_REFUSED = 3;

/** Redis keeps a refusal this long, for a coordinator to show. */
const REFUSAL_TTL_S = 3600;

/** The worker's scratch folder in the temp directory, marked with its owner (src/owners) for the sweep. */
const SCRATCH_PREFIX = "acilab-worker-";

function defaultStops(onStop: (count: number) => void): () => void {
  let count = 0;
  const handler = () => onStop(++count);
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
  return () => {
    process.off("SIGTERM", handler);
    process.off("SIGINT", handler);
  };
}

/** Can each backend this worker offers start a sandbox here? The reasons of those that cannot. */
async function sandboxProblems(backends: readonly WorkerBackend[]): Promise<string[]> {
  const checks = await detectBackends();
  return backends.flatMap((b) => {
    const check = checks.find((c) => c.kind === "backend" && c.name === b);
    return check && !check.ok ? [`sandbox ${b}: ${check.reason}`] : [];
  });
}

export async function runWorker(options: WorkerOptions): Promise<number> {
  const { log } = options;
  const id = `${hostname()}:${process.pid}`;
  const redis = connect(options.url);
  try {
    await reachable(redis, options.url);
  } catch (err) {
    log(`refusing jobs: ${(err as Error).message}`);
    redis.disconnect();
    return WORKER_REFUSED;
  }
  const refuse = async (run: string, why: string) => {
    await redis
      .set(
        keys.refusal(options.queue, run, id),
        JSON.stringify({ worker: id, why, at: new Date().toISOString() }),
        "EX",
        REFUSAL_TTL_S,
      )
      .catch(() => {});
  };
  const problems = await sandboxProblems(options.sandboxes);
  if (problems.length > 0) {
    const why = `${problems.join("; ")} — fix it (acilab doctor says more) or start the worker with a --sandbox that works here`;
    log(`refusing jobs: ${why}`);
    await refuse("any", why);
    redis.disconnect();
    return WORKER_REFUSED;
  }

  // A worker killed -9 cannot remove its scratch: the next worker here removes it (its owner is dead).
  await sweepDeadOwners([SCRATCH_PREFIX]);
  const scratch = markOwned(mkdtempSync(join(tmpdir(), SCRATCH_PREFIX)));
  const ctx = {
    redis,
    worker: id,
    sandboxes: options.sandboxes,
    scratch,
    policyUrls: options.policyUrls ?? [],
  };
  const held = new Map<string, AbortController>();
  let refusedWith: string | undefined;
  const beatEveryMs = Math.max(500, Math.floor(options.lockMs / 3));
  const beat = async () => {
    const info = {
      id,
      host: hostname(),
      pid: process.pid,
      acilab: acilabVersion(),
      protocol: JOB_PROTOCOL,
      concurrency: options.concurrency,
      sandboxes: options.sandboxes,
      active: held.size,
      at: new Date().toISOString(),
    };
    await redis
      .set(keys.worker(options.queue, id), JSON.stringify(info), "PX", beatEveryMs * 3)
      .catch(() => {});
  };
  await beat();
  const beatTimer = setInterval(() => void beat(), beatEveryMs);

  let worker: Worker | undefined;
  const processor = async (job: Job, token?: string) => {
    const skewed = skew(job.data);
    if (skewed) {
      // Not this worker's to run, nor to fail: back to the queue for a worker of the right version.
      const run = String(jobHead(job.data).run ?? "any").replace(/[^A-Za-z0-9_-]/g, "_");
      refusedWith = skewed;
      log(`refusing job ${job.id}: ${skewed}; stopping`);
      await refuse(run, skewed);
      void worker?.close();
      await job.moveToWait(token);
      throw new WaitingError();
    }
    let spec: ReturnType<typeof parseJob>;
    try {
      spec = parseJob(job.data);
    } catch (err) {
      log(`failing job ${job.id}: ${(err as Error).message}`);
      throw new UnrecoverableError((err as Error).message);
    }
    const controller = new AbortController();
    held.set(String(job.id), controller);
    const started = performance.now();
    log(
      `taking ${job.id}: ${describeJob(spec)}${job.attemptsMade > 0 || job.stalledCounter > 0 ? ` (again: ${job.stalledCounter} worker(s) died on it, ${job.attemptsMade} failure(s))` : ""}`,
    );
    try {
      const result = await executeJob(spec, ctx, controller.signal);
      if (result === ABORTED) {
        log(`handing back ${job.id}`);
        await job.moveToWait(token);
        throw new WaitingError();
      }
      log(
        `finished ${job.id}: ${describeResult(result)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      return result;
    } finally {
      held.delete(String(job.id));
    }
  };

  worker = new Worker(options.queue, processor, {
    connection: redis,
    prefix: PREFIX,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: options.stalledMs,
    maxStalledCount: options.maxCrashes,
    autorun: false,
  });
  worker.on("error", (err) => log(`queue error (retrying): ${err.message}`));
  log(
    `worker ${id} ready: acilab ${acilabVersion()} (job protocol ${JOB_PROTOCOL}), concurrency ${options.concurrency}, sandbox ${options.sandboxes.join(", ")}, queue ${options.queue} at ${redactUrl(options.url)}`,
  );
  const unhook = (options.stops ?? defaultStops)((count) => {
    if (count === 1) {
      log(`draining: taking nothing new, finishing ${held.size} job(s) — signal again to hand them back`);
      void worker?.close();
    } else {
      log(`handing back ${held.size} job(s)`);
      for (const c of held.values()) c.abort();
    }
  });
  try {
    await worker.run();
  } finally {
    unhook();
    clearInterval(beatTimer);
    await worker.close().catch(() => {});
    await redis.del(keys.worker(options.queue, id)).catch(() => {});
    redis.disconnect();
    releaseOwned(scratch);
  }
  log(refusedWith ? `stopped: ${refusedWith}` : "stopped: drained");
  return refusedWith ? WORKER_REFUSED : 0;
}
