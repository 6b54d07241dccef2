import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { LineWorker, WorkerCrashedError, WorkerTimeoutError, WorkerUnavailableError } from "./line-worker.js";

/**
 * A stand-in worker in Node (always installed): greets, then answers {id, echo} per request line, and
 * misbehaves on request: "hang" never answers, "die" exits, "dieOnce" exits unless this is a second
 * life (the MARK file exists), "noise" prints a line that answers nothing.
 */
const FAKE = `
const fs = require("node:fs");
const mark = process.env.MARK;
console.log(JSON.stringify({ ready: process.env.REFUSE ? false : true, error: "no pyflakes here", pid: process.pid }));
if (process.env.REFUSE) process.exit(0);
let buf = "";
process.stdin.setEncoding("utf8").on("data", (chunk) => {
  buf += chunk;
  for (let i = buf.indexOf("\\n"); i >= 0; i = buf.indexOf("\\n")) {
    const req = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (req.hang) continue;
    if (req.die) process.exit(3);
    if (req.dieOnce && !fs.existsSync(mark)) { fs.writeFileSync(mark, "1"); process.exit(4); }
    if (req.noise) console.log("stray output");
    console.log(JSON.stringify({ id: req.id, echo: req.echo, pid: process.pid }));
  }
});
`;

const workers: LineWorker[] = [];
/** Long enough for a busy machine to answer every request the fake is not told to hang on. */
const TIMEOUT_UNDER_TEST_MS = 1_500;

function fake(env: Record<string, string> = {}, requestTimeoutMs = HANG_GUARD_MS): LineWorker {
  Object.assign(process.env, env);
  const w = new LineWorker({
    command: process.execPath,
    args: ["-e", FAKE],
    requestTimeoutMs,
    startTimeoutMs: HANG_GUARD_MS,
  });
  workers.push(w);
  return w;
}

afterEach(() => {
  for (const w of workers.splice(0)) w.close();
  delete process.env.REFUSE;
  delete process.env.MARK;
});

const exited = (pid: number) =>
  new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });

describe("LineWorker", () => {
  it("starts on the first request and answers each request with its own reply", async () => {
    const w = fake();
    expect(w.pid).toBeUndefined();
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => w.request({ echo: i })));
    expect(replies.map((r) => r.echo)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(new Set(replies.map((r) => r.pid)).size).toBe(1);
    expect(w.greeting?.ready).toBe(true);
  });

  it("restarts a worker that was killed between requests", async () => {
    const w = fake();
    const first = await w.request({ echo: "a" });
    const pid = w.pid;
    expect(pid).toBe(first.pid);
    process.kill(pid as number, "SIGKILL");
    await exited(pid as number);
    const second = await w.request({ echo: "b" });
    expect(second.echo).toBe("b");
    expect(second.pid).not.toBe(pid);
  });

  it("retries a request once on a fresh worker when the worker dies answering it", async () => {
    const mark = join(tmpdir(), `acilab-line-worker-${process.pid}-${Date.now()}`);
    const w = fake({ MARK: mark });
    try {
      const first = await w.request({ echo: 0 });
      const reply = await w.request({ echo: 1, dieOnce: true });
      expect(reply.echo).toBe(1);
      expect(reply.pid).not.toBe(first.pid);
    } finally {
      rmSync(mark, { force: true });
    }
  });

  it("gives up on a request that kills every worker, and still serves the next one", async () => {
    const w = fake();
    await expect(w.request({ die: true })).rejects.toBeInstanceOf(WorkerCrashedError);
    expect((await w.request({ echo: "after" })).echo).toBe("after");
  });

  it("times a request out, kills the worker, and serves queued requests from a new one", async () => {
    const w = fake({}, TIMEOUT_UNDER_TEST_MS);
    await w.request({ echo: "warm" });
    const pid = w.pid as number;
    const hung = w.request({ hang: true });
    const queued = w.request({ echo: "queued" });
    await expect(hung).rejects.toBeInstanceOf(WorkerTimeoutError);
    const reply = await queued;
    expect(reply.echo).toBe("queued");
    expect(reply.pid).not.toBe(pid);
    await exited(pid);
  });

  it("fails the request in flight when closed, instead of leaving it waiting", async () => {
    const w = fake();
    await w.request({ echo: "warm" });
    const hung = w.request({ hang: true });
    const queued = w.request({ echo: "never sent" });
    w.close();
    await expect(hung).rejects.toBeInstanceOf(WorkerCrashedError);
    await expect(queued).rejects.toThrow(/closed/);
    expect((await w.request({ echo: "reopened" })).echo).toBe("reopened");
  });

  it("treats an answer out of turn as a crash and recovers", async () => {
    const w = fake();
    // The stray line arrives where the reply should, on both attempts; the next request is served.
    await expect(w.request({ echo: "x", noise: true })).rejects.toThrow(/out of turn: stray output/);
    expect((await w.request({ echo: "y" })).echo).toBe("y");
  });

  it("reports a worker that refuses to start, or cannot, as unavailable", async () => {
    const refusing = fake({ REFUSE: "1" });
    await expect(refusing.request({ echo: 1 })).rejects.toThrow(/cannot run: no pyflakes here/);
    await expect(refusing.request({ echo: 1 })).rejects.toBeInstanceOf(WorkerUnavailableError);
    const missing = new LineWorker({
      command: "/nonexistent/python3",
      args: [],
      requestTimeoutMs: HANG_GUARD_MS,
    });
    workers.push(missing);
    const both = [missing.request({}), missing.request({})];
    for (const p of both) await expect(p).rejects.toBeInstanceOf(WorkerUnavailableError);
  });

  it("does not keep Node running once it is idle", async () => {
    const module = new URL("./line-worker.ts", import.meta.url).href;
    // No close(), no exit(): the script ends when nothing but an idle worker is left.
    const script = `(async () => {
      const { LineWorker } = await import(${JSON.stringify(module)});
      const w = new LineWorker({ command: process.execPath, args: ["-e", ${JSON.stringify(FAKE)}], requestTimeoutMs: ${HANG_GUARD_MS}, startTimeoutMs: ${HANG_GUARD_MS} });
      const r = await w.request({ echo: "done" });
      console.log(r.echo);
    })();`;
    const tsx = fileURLToPath(new URL("../../../node_modules/tsx/dist/cli.mjs", import.meta.url));
    // A Node kept alive by the idle worker never exits: execFile kills it at the hang guard and fails.
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [tsx, "-e", script], { timeout: HANG_GUARD_MS }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    expect(out.trim()).toBe("done");
  });
});
