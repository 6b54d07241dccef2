/**
 * Scale-out on a real redis-server with real `acilab worker` processes (dist/, as deployed):
 * - the queue's overhead per job: the same short attempt (the Acme tool task, scripted code actions,
 *   a bwrap sandbox and a grade) run here, and through Redis on one worker, one job at a time;
 * - throughput of 1, 2 and 4 single-slot workers on a batch of those short jobs;
 * - how long a job held by a worker killed -9 waits until another worker takes it, with short locks
 *   and with the defaults;
 * - a fault mix (workers killed and restarted, the coordinator stopped and started, Redis restarted
 *   with persistence) over one experiment: results lost and duplicated.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type AttemptRow, loadExperiment, runAttemptHere, runExperiment } from "../src/experiment/index.js";
import { type RunSettings, resolveRunSpec } from "../src/run/index.js";
import {
  acilabVersion,
  BundlePublisher,
  Coordinator,
  JOB_PROTOCOL,
  type JobSpec,
  remoteAttempts,
} from "../src/scale/index.js";
import { packageRoot } from "../src/tasks/index.js";
import { watchLines } from "../src/testing/lines.js";
import { startRedis, type TestRedis } from "../src/testing/redis.js";
import { type BenchRow, summarise } from "./stats.js";

const OVERHEAD_JOBS = 15;
const OVERHEAD_TARGET_MS = 10;
const THROUGHPUT_JOBS = 24;

interface Worker {
  child: ChildProcess;
  lines: string[];
  waitFor(re: RegExp): Promise<string>;
  kill9(): Promise<void>;
}

function startWorker(url: string, extra: string[] = []): Worker {
  const child = spawn(
    process.execPath,
    [join(packageRoot(), "bin", "acilab.js"), "worker", "--redis", url, "--concurrency", "1", ...extra],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const watched = watchLines(child);
  return {
    child,
    lines: watched.lines,
    waitFor: watched.line,
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await watched.exited;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** An attempt at a built-in task as a job, scripted. */
function builtinJob(
  run: string,
  repeat: number,
  arm: string,
  kind: "tools" | "coding",
  task: string,
  settings: RunSettings,
): JobSpec {
  return {
    protocol: JOB_PROTOCOL,
    acilab: acilabVersion(),
    run,
    kind: "attempt",
    attempt: { arm, arm_version: 1, arm_hash: "bench", task_kind: kind, task, repeat },
    spec: resolveRunSpec({ policy: "scripted", ...settings }).spec,
    task: { source: "builtin", id: task },
  };
}

/** The short attempt: the Acme tool task with scripted code actions. */
const acmeJob = (run: string, repeat: number) =>
  builtinJob(run, repeat, "code", "tools", "acme", { action_format: "code" });

async function localAcme(root: string, n: number, tag: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await runAttemptHere(
      {
        key: { arm: "code", arm_version: 1, task_kind: "tools", task: "acme", repeat: i + 1 },
        armHash: "bench",
        runUid: "bench",
        ref: { kind: "tools", id: "acme", source: "builtin" },
        spec: resolveRunSpec({ policy: "scripted", action_format: "code" }).spec,
        out: join(root, `local-${tag}-${i}`),
      },
      undefined,
    );
    times.push(performance.now() - start);
  }
  return times;
}

async function overhead(redis: TestRedis, root: string): Promise<BenchRow[]> {
  const w = startWorker(redis.url);
  await w.waitFor(/ready:/);
  const c = await Coordinator.open({ url: redis.url, queue: "acilab", run: "bover", sweepMs: 1000 });
  try {
    await c.submit(c.jobId("warm"), acmeJob("bover", 999)); // the worker's first job loads its code
    const local = await localAcme(root, OVERHEAD_JOBS, "a");
    const queued: number[] = [];
    for (let i = 0; i < OVERHEAD_JOBS; i++) {
      const start = performance.now();
      const r = await c.submit(c.jobId(`o${i}`), acmeJob("bover", i + 1));
      if (r.status !== "done")
        throw new Error(`bench: an overhead job did not finish: ${JSON.stringify(r).slice(0, 300)}`);
      queued.push(performance.now() - start);
    }
    local.push(...(await localAcme(root, OVERHEAD_JOBS, "b")));
    const over = queued.map((q) => q - median(local));
    return [
      summarise("scale: one short attempt run here (acme, code actions, bwrap)", local),
      summarise("scale: the same attempt through Redis on one worker (round trip)", queued),
      summarise("scale: queue overhead per job (round trip − local median)", over, OVERHEAD_TARGET_MS),
    ];
  } finally {
    await c.close();
    await w.kill9();
  }
}

async function throughput(redis: TestRedis, workers: number): Promise<{ row: BenchRow; perSecond: number }> {
  const ws = Array.from({ length: workers }, () => startWorker(redis.url));
  await Promise.all(ws.map((w) => w.waitFor(/ready:/)));
  const run = `bthr${workers}`;
  const c = await Coordinator.open({ url: redis.url, queue: "acilab", run, sweepMs: 1000 });
  try {
    // Warm every worker (its first job loads the code), then time the batch.
    await Promise.all(ws.map((_, i) => c.submit(c.jobId(`warm${i}`), acmeJob(run, 900 + i))));
    const start = performance.now();
    const results = await Promise.all(
      Array.from({ length: THROUGHPUT_JOBS }, (_, i) => c.submit(c.jobId(`t${i}`), acmeJob(run, i + 1))),
    );
    const ms = performance.now() - start;
    if (results.some((r) => r.status !== "done")) throw new Error("bench: a throughput job did not finish");
    const perSecond = (THROUGHPUT_JOBS / ms) * 1000;
    return {
      row: summarise(
        `scale: ${THROUGHPUT_JOBS} short jobs, ${workers} worker(s) (${perSecond.toFixed(1)} jobs/s)`,
        [ms / THROUGHPUT_JOBS],
      ),
      perSecond,
    };
  } finally {
    await c.close();
    await Promise.all(ws.map((w) => w.kill9()));
  }
}

/** A coding attempt that takes seconds (lru-recency): long enough to kill its worker mid-job. */
const slowJob = (run: string, repeat: number) =>
  builtinJob(run, repeat, "full", "coding", "lru-recency", { tools: "full" });

async function handOn(redis: TestRedis, lock: string[], label: string, samples: number): Promise<BenchRow> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const a = startWorker(redis.url, lock);
    await a.waitFor(/ready:/);
    const run = `bkill${label.replace(/\W/g, "")}${i}`;
    const c = await Coordinator.open({ url: redis.url, queue: "acilab", run, sweepMs: 1000 });
    try {
      const id = c.jobId("k");
      const done = c.submit(id, slowJob(run, 1));
      await a.waitFor(new RegExp(` taking ${id}:`));
      const b = startWorker(redis.url, lock);
      await b.waitFor(/ready:/);
      const killed = performance.now();
      await a.kill9();
      await b.waitFor(new RegExp(` taking ${id}:`));
      times.push(performance.now() - killed);
      await done;
      await b.kill9();
    } finally {
      await c.close();
    }
  }
  return summarise(`scale: a killed worker's job taken by another (${label})`, times);
}

const FAULT_FILE = `name: faults
base: { policy: scripted }
arms: { full: { tools: full } }
tasks: [median-even, month-rollover, exc-chain, iso-weeks, lru-recency, semver-min-version-unbounded]
repeats: 2
workers: 2
`;

/** One experiment through every fault at once; what the store holds at the end, against the plan. */
export async function faultMix(root: string): Promise<string[]> {
  const redis = await startRedis({ persist: true });
  const lock = ["--lock-seconds", "2", "--stalled-seconds", "1"];
  const file = join(root, "faults.yaml");
  writeFileSync(file, FAULT_FILE);
  const dir = join(root, "faults");
  const all: Worker[] = [];
  const spawnOne = () => {
    const w = startWorker(redis.url, lock);
    all.push(w);
    return w;
  };
  let live = [spawnOne(), spawnOne(), spawnOne()];
  await Promise.all(live.map((w) => w.waitFor(/ready:/)));
  const loaded = loadExperiment(file);
  const coordinate = async (signal?: AbortSignal) => {
    const c = await Coordinator.open({ url: redis.url, queue: "acilab", run: "bfaults", sweepMs: 1000 });
    const bundles = new BundlePublisher(c.redis);
    try {
      return await runExperiment(loaded, {
        dir,
        workers: Number.MAX_SAFE_INTEGER,
        execute: remoteAttempts({ coordinator: c, bundles }),
        ...(signal ? { signal } : {}),
      });
    } finally {
      await c.close();
    }
  };
  const stop = new AbortController();
  const first = coordinate(stop.signal);
  let kills = 0;
  // Kill the first worker to take a job, start another; restart Redis; stop and restart the coordinator.
  const victim = await Promise.race(live.map((w) => w.waitFor(/ taking /).then(() => w)));
  await victim.kill9();
  kills++;
  live = [...live.filter((w) => w !== victim), spawnOne()];
  await Promise.race(live.map((w) => w.waitFor(/ finished /)));
  await redis.restart();
  stop.abort();
  await first;
  const second = await coordinate();
  await Promise.all(all.map((w) => w.kill9()));
  await redis.stop();
  const planned = loaded.arms.length * loaded.tasks.length * loaded.experiment.repeats;
  const rows: AttemptRow[] = second.rows;
  // Lost: planned and not recorded as finished (done, no script or error) after the second run.
  const lost = planned - rows.filter((r) => r.status !== "pending" && r.status !== "running").length;
  const tally = [...new Set(rows.map((r) => r.status))].map(
    (s) => `${rows.filter((r) => r.status === s).length} ${s}`,
  );
  const keys = new Set(rows.map((r) => `${r.arm}/${r.task}#${r.repeat}`));
  const finishedTwice = new Map<string, number>();
  for (const w of all)
    for (const l of w.lines) {
      const m = / finished (\S+):/.exec(l);
      if (m?.[1]) finishedTwice.set(m[1], (finishedTwice.get(m[1]) ?? 0) + 1);
    }
  return [
    `scale: fault mix over ${planned} attempts (${kills} worker killed -9, Redis restarted, coordinator stopped and restarted): lost ${lost}, duplicated rows ${rows.length - keys.size}, jobs run to the end twice ${[...finishedTwice.values()].filter((n) => n > 1).length}; ${tally.join(", ")}, ${rows.filter((r) => r.resolved).length} resolved`,
  ];
}

export async function benchScale(): Promise<{ rows: BenchRow[]; extra: string[] }> {
  const root = mkdtempSync(join(tmpdir(), "acilab-bench-scale-"));
  const redis = await startRedis();
  try {
    const rows = await overhead(redis, root);
    const extra: string[] = [];
    const rates: number[] = [];
    for (const n of [1, 2, 4]) {
      const t = await throughput(redis, n);
      rows.push(t.row);
      rates.push(t.perSecond);
    }
    extra.push(
      `scale: throughput 1 → 2 → 4 workers: ${rates.map((r) => r.toFixed(1)).join(" → ")} jobs/s (×${((rates[1] ?? 0) / (rates[0] ?? 1)).toFixed(2)}, ×${((rates[2] ?? 0) / (rates[0] ?? 1)).toFixed(2)})`,
    );
    rows.push(
      await handOn(
        redis,
        ["--lock-seconds", "2", "--stalled-seconds", "1"],
        "--lock-seconds 2 --stalled-seconds 1",
        3,
      ),
    );
    rows.push(await handOn(redis, [], "the defaults: 15 s lock, 5 s check", 1));
    extra.push(...(await faultMix(root)));
    return { rows, extra };
  } finally {
    await redis.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
