/**
 * A task file's app for one episode: a folder served fresh, a command started in its own process
 * group and polled until it answers, or a URL the user runs (its reset is theirs). Whatever started
 * is stopped by `close()`, the command's whole group with it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { type TaskFile, TaskFileError } from "./schema.js";
import { type RunningApp, serveStatic } from "./static-server.js";

export type { RunningApp } from "./static-server.js";

/** How long a command's app may take to answer at `ready`: a dev server's cold start fits. */
export const READY_TIMEOUT_MS = 30_000;
/** Between polls of `ready`: quick enough to add little to an episode's start. */
const POLL_MS = 100;
/** After SIGTERM, how long the group gets before SIGKILL. */
const STOP_GRACE_MS = 2_000;
/** Lines of the command's output quoted when it fails: the cause is usually in the last few. */
const OUTPUT_TAIL_LINES = 8;

export interface StartAppOptions {
  readyTimeoutMs?: number;
}

export async function startApp(task: TaskFile, options: StartAppOptions = {}): Promise<RunningApp> {
  const { app } = task;
  if (app.kind === "static") return serveStatic(app.dir);
  if (app.kind === "url") {
    const url = new URL(app.url);
    return { origin: url.origin, host: url.host, close: async () => undefined };
  }
  const port = await freePort();
  const child = spawn("sh", ["-c", app.command.replaceAll("{port}", String(port))], {
    cwd: app.cwd,
    detached: true, // its own process group, so close() stops what it forked too
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    output.splice(0, Math.max(0, output.length - OUTPUT_TAIL_LINES));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const origin = `http://127.0.0.1:${port}`;
  const running: RunningApp = { origin, host: `127.0.0.1:${port}`, close: () => stopGroup(child) };
  const timeout = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const problem = await waitReady(child, `${origin}${app.ready}`, timeout);
  if (problem === undefined) return running;
  await running.close();
  const tail = output.length > 0 ? `; its last output:\n  ${output.join("\n  ")}` : "";
  throw new TaskFileError(
    task.file,
    "app.ready",
    `${problem} (command: ${app.command}, port ${port}) — check that the command serves on {port} and answers ${app.ready}${tail}`,
  );
}

/** undefined once `url` answers (any status below 500); else why it never did. */
async function waitReady(child: ChildProcess, url: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once("exit", (code, signal) => {
    exited = `the app exited (${signal ?? `code ${code}`}) before it answered`;
  });
  while (Date.now() < deadline) {
    if (exited) return exited;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.status < 500) return undefined;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return exited ?? `${url} did not answer within ${timeoutMs / 1000} s`;
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const kill = setTimeout(() => signalGroup(pid, "SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(kill);
      // The shell may be gone while what it started lives on in the group.
      signalGroup(pid, "SIGKILL");
      resolve();
    });
    signalGroup(pid, "SIGTERM");
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/** A port nothing listens on right now (the OS's pick), for the command's {port}. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
