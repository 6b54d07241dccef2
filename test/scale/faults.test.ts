/**
 * Scale-out under faults, with real processes: a real redis-server, `acilab worker`s and coordinators
 * started from source. Each test ends with every attempt recorded exactly once: at-least-once
 * delivery, exactly-once results.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it, type TestContext, vi } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { readOwnerMark } from "../../src/owners/index.js";
import { Coordinator, connect, keys, PREFIX } from "../../src/scale/index.js";
import { loadTask } from "../../src/tasks/index.js";
import { startRedis, type TestRedis } from "../../src/testing/redis.js";
import { EVENTUALLY, HANG_GUARD_MS } from "../../src/testing/time.js";
import { type Proc, Processes, rows, STEADY, taken } from "./harness.js";

let redis: TestRedis;
const dirs: string[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function experiment(name: string, tasks: readonly string[], repeats = 1): { file: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), "acilab-scale-e2e-"));
  dirs.push(root);
  const file = join(root, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}\nbase: { policy: scripted }\narms: { full: { tools: full } }\ntasks: [${tasks.join(", ")}]\nrepeats: ${repeats}\nworkers: 2\n`,
  );
  return { file, dir: join(root, "out") };
}

/** Every planned attempt, once each, all done. */
function expectAllDoneOnce(dir: string, planned: number): void {
  const all = rows(dir);
  expect(all).toHaveLength(planned);
  expect(new Set(all.map((r) => `${r.arm}@${r.arm_version}/${r.task}#${r.repeat}`)).size).toBe(planned);
  expect(all.filter((r) => r.status !== "done").map((r) => `${r.task}: ${r.status} ${r.error}`)).toEqual([]);
}

function verdicts(dir: string): Record<string, boolean | null> {
  return Object.fromEntries(
    rows(dir).map((r) => [`${r.task}#${r.repeat}`, r.resolved === null ? null : Boolean(r.resolved)]),
  );
}

const GUARD = { ...EVENTUALLY, timeout: 2 * HANG_GUARD_MS };

/** The test's own processes, killed when it ends (the tests run at once, each on its own queue). */
function processes({ onTestFinished }: TestContext): Processes {
  const procs = new Processes();
  onTestFinished(() => procs.killAll());
  return procs;
}

/** `work`, or a failure that shows what the worker said, well before vitest's own limit. */
async function within<T>(work: Promise<T>, what: string, proc: Proc): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what} did not happen within ${HANG_GUARD_MS / 1000} s; the worker said:\n${proc.lines.join("\n")}`,
          ),
        ),
      HANG_GUARD_MS,
    );
  });
  try {
    return await Promise.race([work, guard]);
  } finally {
    clearTimeout(timer);
  }
}

// The tests run at once: most of each is waiting on a lock to lapse or a process to start.
describe.concurrent("scale-out under faults (real redis-server and worker processes)", () => {
  it("three workers, one killed -9 mid-job: its job is run by another, and the verdicts equal a local run's", async (context) => {
    const procs = processes(context);
    const q = "faults-1"; // its own queue: what one test leaves cannot reach the next
    // A Python task, a TypeScript one and the impossible one: each job runs for seconds, long enough
    // to be held when its worker is killed, and the verdicts include a false one.
    const tasks = ["median-even", "csv-nonnumeric", "semver-min-version-unbounded", "exc-chain"];
    const remote = experiment("three", tasks);
    const workers = [
      procs.worker(redis.url, ["--queue", q]),
      procs.worker(redis.url, ["--queue", q]),
      procs.worker(redis.url, ["--queue", q]),
    ];
    await Promise.all(workers.map((w) => w.line(/ready:/)));
    const coordinator = runCli([
      "experiment",
      "run",
      remote.file,
      "--out",
      remote.dir,
      "--redis",
      redis.url,
      "--queue",
      q,
    ]);
    // The first worker to take a job is killed while it holds it.
    const victim = await Promise.race(workers.map((w) => w.line(/ taking /).then(() => w)));
    const held = / taking (\S+):/.exec(victim.lines.find((l) => / taking /.test(l)) ?? "")?.[1];
    await victim.kill9();
    const result = await coordinator;
    expect(result.code, result.out + result.err).toBe(0);
    expectAllDoneOnce(remote.dir, tasks.length);
    // The held job was taken again by a survivor, which says a worker died on it.
    const survivors = workers.filter((w) => w !== victim);
    expect(
      survivors
        .flatMap((w) => w.lines)
        .some((l) => l.includes(`taking ${held}:`) && /again: 1 worker\(s\) died/.test(l)),
    ).toBe(true);
    expect(result.out).toMatch(/workers 3 alive/);

    // The verdicts a local run gives (test/e2e/builtin-scripts.test.ts runs every reference script
    // here and checks each resolves, the impossible one excepted): the same through the workers.
    expect(verdicts(remote.dir)).toEqual(
      Object.fromEntries(tasks.map((t) => [`${t}#1`, !loadTask(t).impossible])),
    );
    expect(verdicts(remote.dir)["semver-min-version-unbounded#1"]).toBe(false); // the impossible task
  });

  it("a coordinator killed -9 and started again collects what the workers finished meanwhile", async (context) => {
    const procs = processes(context);
    const q = "faults-2"; // its own queue: what one test leaves cannot reach the next
    const { file, dir } = experiment("restart", ["median-even", "month-rollover", "exc-chain", "iso-weeks"]);
    const w = procs.worker(redis.url, ["--queue", q, ...STEADY]);
    await w.line(/ready:/);
    const first = procs.spawn(["experiment", "run", file, "--out", dir, "--redis", redis.url, "--queue", q]);
    await first.line(/\[1\/4\]/);
    await first.kill9();
    const finishedBefore = rows(dir).filter((r) => r.status === "done").length;
    // The worker goes on without a coordinator: wait until it has finished another job.
    const finishedLines = () => w.lines.filter((l) => / finished /.test(l)).length;
    const atKill = finishedLines();
    await vi.waitFor(() => expect(finishedLines()).toBeGreaterThan(atKill), GUARD);
    const again = await runCli(["experiment", "run", file, "--out", dir, "--redis", redis.url, "--queue", q]);
    expect(again.code, again.out + again.err).toBe(0);
    expectAllDoneOnce(dir, 4);
    expect(finishedBefore).toBeGreaterThanOrEqual(1);
    // Nothing was run twice: every job was taken once, though two coordinators submitted it.
    expect([...taken([w]).values()].every((n) => n === 1)).toBe(true);
    expect(taken([w]).size).toBe(4);
    // Nothing of the run is left in Redis: the jobs the killed coordinator had collected are removed too.
    const client = connect(redis.url);
    try {
      const prefix = [...taken([w]).keys()][0]?.split("-")[0];
      expect(await client.keys(`${PREFIX}:${q}:${prefix}-*`)).toEqual([]);
    } finally {
      client.disconnect();
    }
  });

  it("Redis restarted mid-run with persistence on: the jobs and results survive, none lost or duplicated", async (context) => {
    const procs = processes(context);
    const q = "faults-3"; // its own queue: what one test leaves cannot reach the next
    const own = await startRedis({ persist: true });
    try {
      const { file, dir } = experiment("redis-restart", ["median-even", "exc-chain"]);
      const w = procs.worker(own.url, ["--queue", q]);
      await w.line(/ready:/);
      const coordinator = runCli(["experiment", "run", file, "--out", dir, "--redis", own.url, "--queue", q]);
      await w.line(/ finished /);
      await own.restart();
      const result = await coordinator;
      expect(result.code, result.out + result.err).toBe(0);
      expectAllDoneOnce(dir, 2);
      expect(result.out).not.toMatch(/was not in Redis any more/); // persisted: nothing had to be re-added
    } finally {
      await own.stop();
    }
  });

  it("a job that kills its worker every time is failed after --max-crashes and reported; the run finishes", async (context) => {
    const procs = processes(context);
    const q = "faults-4"; // its own queue: what one test leaves cannot reach the next
    const { file, dir } = experiment("poison", ["median-even", "exc-chain"]);
    let deaths = 0;
    const killed: number[] = [];
    let current: Proc | undefined;
    // Stands for a job that crashes the process running it: whoever takes median-even dies at once.
    const start = () => {
      const w = procs.worker(redis.url, ["--max-crashes", "1", "--queue", q]);
      current = w;
      void w.line(/ taking .*median-even/).then(
        async () => {
          deaths++;
          if (w.child.pid) killed.push(w.child.pid);
          await w.kill9();
          start();
        },
        () => undefined,
      );
      return w;
    };
    start();
    const result = await runCli([
      "experiment",
      "run",
      file,
      "--out",
      dir,
      "--redis",
      redis.url,
      "--queue",
      q,
    ]);
    expect(result.code, result.out + result.err).toBe(0);
    const all = rows(dir);
    expect(all).toHaveLength(2);
    const poison = all.find((r) => r.task === "median-even");
    expect(poison?.status).toBe("error");
    expect(poison?.error).toMatch(/its worker died \d+ time\(s\) while running it .* crashes the worker/);
    expect(all.find((r) => r.task === "exc-chain")?.status).toBe("done");
    expect(deaths).toBe(2); // the first run and one more (--max-crashes 1), then failed
    expect(result.out).toMatch(/error — its worker died/);
    // The killed workers' scratch folders are removed by the worker started after them.
    const scratchOf = (pid: number) =>
      readdirSync(tmpdir())
        .filter((n) => n.startsWith("acilab-worker-"))
        .filter((n) => readOwnerMark(join(tmpdir(), n))?.pid === pid);
    // (They are marked with their owner, as the running worker's is: the check is not vacuous.)
    await vi.waitFor(() => {
      expect(killed.flatMap(scratchOf)).toEqual([]);
      expect(scratchOf(current?.child.pid ?? -1)).toHaveLength(1);
    }, GUARD);
  });

  it("a worker whose sandbox cannot start refuses jobs and says why; the coordinator shows it", async (context) => {
    const procs = processes(context);
    const q = "faults-5"; // its own queue: what one test leaves cannot reach the next
    const fake = mkdtempSync(join(tmpdir(), "acilab-fakebwrap-"));
    dirs.push(fake);
    writeFileSync(
      join(fake, "bwrap"),
      '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const w = procs.worker(redis.url, ["--queue", q], { ...process.env, ACILAB_BWRAP: join(fake, "bwrap") });
    expect(await w.exited).toBe(3);
    expect(w.lines.join("\n")).toMatch(
      /refusing jobs: sandbox bwrap: .*cannot start a sandbox: .*Permission denied/,
    );
    const said: string[] = [];
    const c = await Coordinator.open({
      url: redis.url,
      queue: q,
      run: "eanyrun",
      log: (l) => said.push(l),
      sweepMs: 200,
    });
    try {
      await vi.waitFor(
        () => expect(said.join("\n")).toMatch(/worker \S+ refused: sandbox bwrap: .*Permission denied/),
        GUARD,
      );
    } finally {
      await c.close();
    }
  });

  it("version skew: a job queued by another acilab is handed back, not failed, and the worker stops saying why", async (context) => {
    const procs = processes(context);
    const q = "faults-6"; // its own queue: what one test leaves cannot reach the next
    const queue = new Queue(q, { connection: connect(redis.url), prefix: PREFIX });
    try {
      await queue.add(
        "attempt",
        { protocol: 1, acilab: "0.0.0-other", run: "eskew", kind: "attempt" },
        { jobId: "eskew-1" },
      );
      const w = procs.worker(redis.url, ["--queue", q]);
      expect(await w.exited).toBe(3);
      expect(w.lines.join("\n")).toMatch(
        /refusing job eskew-1: the job was queued by acilab 0\.0\.0-other .* run workers of the coordinator's version/,
      );
      expect(await (await queue.getJob("eskew-1"))?.getState()).toBe("waiting");
      const client = connect(redis.url);
      try {
        expect(await client.keys(keys.refusals(q, "eskew"))).toHaveLength(1);
      } finally {
        client.disconnect();
      }
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it("SIGTERM drains: the held job finishes and is collected, then the worker exits 0", async (context) => {
    const procs = processes(context);
    const q = "faults-7"; // its own queue: what one test leaves cannot reach the next
    const { file, dir } = experiment("drain", ["lru-recency"]);
    const w = procs.worker(redis.url, ["--queue", q, ...STEADY]);
    await w.line(/ready:/);
    const coordinator = runCli(["experiment", "run", file, "--out", dir, "--redis", redis.url, "--queue", q]);
    await w.line(/ taking /);
    w.child.kill("SIGTERM");
    await w.line(/draining: taking nothing new/);
    expect(await within(w.exited, "the worker's exit", w)).toBe(0);
    expect(w.lines.some((l) => / finished .*resolved/.test(l))).toBe(true);
    const result = await within(coordinator, "the coordinator's end", w);
    expect(result.code).toBe(0);
    expectAllDoneOnce(dir, 1);
  });
});
