/**
 * The coordinator's side of the queue: submit a job under a name made from what it is (so submitting
 * again — after a restart, say — finds the same job instead of adding a second), and get its result
 * once, however it got there: an event, or the sweep that asks Redis about every job still awaited
 * (events are lost while Redis restarts; the sweep is what makes a result impossible to miss).
 */
import { type Job, Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { connect, keys, PREFIX, reachable } from "./connection.js";
import { acilabVersion, JOB_PROTOCOL, type JobResult, type JobSpec } from "./protocol.js";
import { aliveWorkers, scanKeys, type WorkerInfo } from "./workers.js";

export interface CoordinatorOptions {
  url: string;
  queue: string;
  /** The run's namespace: every job id starts with it. */
  run: string;
  /** Lines for the user: workers that refuse, jobs that were lost and added again. */
  log?: (line: string) => void;
  /** How often every awaited job is looked up (default 2 s). */
  sweepMs?: number;
}

interface Waiter {
  spec: JobSpec;
  resolve: (r: JobResult) => void;
  reject: (e: Error) => void;
}

/** A job that failed for good, as the result the run records (an attempt's or instance's error). */
function failedResult(spec: JobSpec, job: Job): JobResult {
  const reason = job.failedReason ?? "no reason given";
  const why = /stalled more than allowable limit/.test(reason)
    ? `its worker died ${job.stalledCounter} time(s) while running it (BullMQ: ${reason}) — the job crashes the worker that runs it; the workers' logs say more`
    : `the job failed on the worker after ${job.attemptsMade} try(s): ${reason}`;
  return spec.kind === "attempt"
    ? { kind: "attempt", status: "error", why, worker: "-" }
    : { kind: "grade", status: "error", why, worker: "-" };
}

function isResult(value: unknown, kind: JobSpec["kind"]): value is JobResult {
  const v = value as { kind?: unknown; status?: unknown } | null;
  return typeof v === "object" && v !== null && v.kind === kind && typeof v.status === "string";
}

const CLOSE_STEP_MS = 5000;

/** Waits for `work` at most CLOSE_STEP_MS; its failure is not the caller's concern. */
async function bounded(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise((r) => {
      timer = setTimeout(r, CLOSE_STEP_MS);
    }),
  ]);
  clearTimeout(timer);
}

export class Coordinator {
  private readonly waiters = new Map<string, Waiter>();
  private readonly seenRefusals = new Set<string>();
  private readonly warnedWorkers = new Set<string>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private sweeps = 0;
  /** Results handed over whose jobs are not removed yet (close removes the rest). */
  private readonly collected = new Set<Job>();
  private workersNow: WorkerInfo[] = [];

  private constructor(
    readonly options: CoordinatorOptions,
    readonly redis: Redis,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly listener: Redis,
  ) {}

  static async open(options: CoordinatorOptions): Promise<Coordinator> {
    const redis = connect(options.url);
    try {
      await reachable(redis, options.url);
    } catch (err) {
      redis.disconnect();
      throw err;
    }
    const queue = new Queue(options.queue, { connection: redis, prefix: PREFIX });
    const listener = redis.duplicate();
    listener.on("error", () => {});
    const events = new QueueEvents(options.queue, { connection: listener, prefix: PREFIX });
    queue.on("error", () => {});
    events.on("error", () => {});
    await events.waitUntilReady();
    const c = new Coordinator(options, redis, queue, events, listener);
    const poke = ({ jobId }: { jobId: string }) => {
      if (c.waiters.has(jobId)) void c.collect(jobId);
    };
    events.on("completed", poke);
    events.on("failed", poke);
    c.sweepTimer = setInterval(() => void c.sweep(), options.sweepMs ?? 2000);
    await c.refreshWorkers();
    return c;
  }

  /** The job id for `suffix` in this run. */
  jobId(suffix: string): string {
    return `${this.options.run}-${suffix}`;
  }

  /**
   * The job's result, once. A job already there under this id is the same work when its data is the
   * same (it is awaited, or its result taken); a different one left by an older coordinator is replaced.
   */
  async submit(id: string, spec: JobSpec): Promise<JobResult> {
    const result = new Promise<JobResult>((resolve, reject) =>
      this.waiters.set(id, { spec, resolve, reject }),
    );
    const existing = await this.queue.getJob(id);
    if (existing && JSON.stringify(existing.data) !== JSON.stringify(spec)) {
      const state = await existing.getState();
      if (state !== "active") await existing.remove().catch(() => {});
    }
    await this.add(id, spec);
    await this.collect(id);
    return result;
  }

  private async add(id: string, spec: JobSpec): Promise<void> {
    await this.queue.add(spec.kind, spec, {
      jobId: id,
      attempts: 2,
      backoff: { type: "fixed", delay: 1000 },
      removeOnComplete: false,
      removeOnFail: false,
    });
  }

  /** Looks the job up; a finished one resolves its waiter, and its job is removed a moment later. */
  private async collect(id: string): Promise<void> {
    const waiter = this.waiters.get(id);
    if (!waiter) return;
    // The state first, then the job: a job read before it finished would carry no result yet.
    const state = await this.queue.getJobState(id);
    if (state === "unknown") {
      // Gone without a result (a Redis restarted without its data, someone's cleanup): add it again.
      this.options.log?.(`job ${id} was not in Redis any more — queued again`);
      await this.add(id, waiter.spec);
      return;
    }
    if (state !== "completed" && state !== "failed") return;
    const job = await this.queue.getJob(id);
    if (!job) return; // removed in between: the next look adds it again
    let result: JobResult;
    if (state === "completed") {
      result = isResult(job.returnvalue, waiter.spec.kind)
        ? job.returnvalue
        : failedResult(
            waiter.spec,
            Object.assign(job, { failedReason: "the worker returned no result acilab can read" }),
          );
    } else result = failedResult(waiter.spec, job);
    if (!this.waiters.has(id)) return;
    this.waiters.delete(id);
    waiter.resolve(result);
    // After the run has written the result (synchronously, right after this resolves): a coordinator
    // killed in between finds the job again and takes the same result.
    this.collected.add(job);
    setTimeout(() => void this.forget(job), 1000).unref();
  }

  /**
   * Every few seconds: the jobs of ours in BullMQ's completed and failed sets are collected (two
   * range reads, however many jobs are awaited), and every fifth sweep each awaited job is checked to
   * still exist (one pipelined EXISTS each) — a job Redis lost is added again.
   */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = (async () => {
      try {
        const base = `${PREFIX}:${this.options.queue}`;
        const ended = [
          ...(await this.redis.zrange(`${base}:completed`, "0", "-1")),
          ...(await this.redis.zrange(`${base}:failed`, "0", "-1")),
        ];
        for (const id of ended) if (this.waiters.has(id)) await this.collect(id);
        if (this.sweeps++ % 5 === 0 && this.waiters.size > 0) {
          const ids = [...this.waiters.keys()];
          const pipeline = this.redis.pipeline();
          for (const id of ids) pipeline.exists(`${base}:${id}`);
          const found = (await pipeline.exec()) ?? [];
          for (const [i, id] of ids.entries()) if (found[i]?.[1] === 0) await this.collect(id);
        }
        await this.refreshWorkers();
        await this.refreshRefusals();
      } catch {
        // Redis away: the next sweep tries again.
      }
    })().finally(() => {
      this.sweeping = undefined;
    });
    await this.sweeping;
  }

  private async refreshWorkers(): Promise<void> {
    this.workersNow = await aliveWorkers(this.redis, this.options.queue);
    for (const w of this.workersNow)
      if ((w.acilab !== acilabVersion() || w.protocol !== JOB_PROTOCOL) && !this.warnedWorkers.has(w.id)) {
        this.warnedWorkers.add(w.id);
        this.options.log?.(
          `worker ${w.id} is acilab ${w.acilab} (protocol ${w.protocol}); this coordinator is ${acilabVersion()} (protocol ${JOB_PROTOCOL}) — it will refuse this run's jobs`,
        );
      }
  }

  private async refreshRefusals(): Promise<void> {
    const found = [
      ...(await scanKeys(this.redis, keys.refusals(this.options.queue, this.options.run))),
      ...(await scanKeys(this.redis, keys.refusals(this.options.queue, "any"))),
    ].filter((k) => !this.seenRefusals.has(k));
    for (const key of found) {
      this.seenRefusals.add(key);
      const v = await this.redis.get(key);
      if (!v) continue;
      try {
        const { worker, why } = JSON.parse(v) as { worker: string; why: string };
        this.options.log?.(`worker ${worker} refused: ${why}`);
      } catch {
        // not ours to read
      }
    }
  }

  /** Workers whose heartbeat is fresh, as of the last sweep. */
  workers(): readonly WorkerInfo[] {
    return this.workersNow;
  }

  private async forget(job: Job): Promise<void> {
    if (!this.collected.delete(job)) return;
    await job.remove().catch(() => {});
  }

  /** Jobs submitted and not yet finished. */
  outstanding(): number {
    return this.waiters.size;
  }

  /**
   * Once a run has every result written: any finished job of its namespace still in Redis (collected
   * by a coordinator killed before it removed them) is removed. Returns how many.
   */
  async cleanRun(): Promise<number> {
    const base = `${PREFIX}:${this.options.queue}`;
    const ours = [
      ...(await this.redis.zrange(`${base}:completed`, "0", "-1")),
      ...(await this.redis.zrange(`${base}:failed`, "0", "-1")),
    ].filter((id) => id.startsWith(`${this.options.run}-`) && !this.waiters.has(id));
    for (const id of ours) await (await this.queue.getJob(id))?.remove().catch(() => {});
    return ours.length;
  }

  /** Stops waiting (jobs not finished stay queued: a coordinator started again collects them). */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await bounded(this.sweeping ?? Promise.resolve());
    for (const w of this.waiters.values()) w.reject(new Error("the coordinator stopped waiting"));
    this.waiters.clear();
    // By now the run has written every result it was handed: their jobs can go.
    await bounded(Promise.all([...this.collected].map((job) => this.forget(job))));
    // A connection half-dead after a Redis restart can hold a close forever: each step gets a few
    // seconds, then the sockets are cut (nothing is lost by that: every result is written by now).
    await bounded(this.events.close());
    this.listener.disconnect();
    await bounded(this.queue.close());
    this.redis.disconnect();
  }
}
