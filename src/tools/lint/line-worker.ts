import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { tmpdir } from "node:os";

/** Python's start-up plus importing pyflakes takes ~0.15 s; 10 s means a wedged or missing interpreter. */
export const WORKER_START_TIMEOUT_MS = 10_000;

/** A worker that dies mid-request is restarted and the request sent once more; a second death blames the input. */
const MAX_ATTEMPTS = 2;

/** stderr kept for error messages: room for a Python traceback, bounded for a worker that chatters. */
const STDERR_TAIL_CHARS = 4_000;

/** The worker could not start (interpreter or module missing): the caller should use another linter. */
export class WorkerUnavailableError extends Error {}
/** The worker did not answer in time; it has been killed and the next request starts a fresh one. */
export class WorkerTimeoutError extends Error {}
/** The worker died or broke the protocol while answering. */
export class WorkerCrashedError extends Error {}

export interface LineWorkerOptions {
  command: string;
  args: readonly string[];
  /** Per request, counted from when it is sent (requests queue behind each other, not inside the worker). */
  requestTimeoutMs: number;
  startTimeoutMs?: number;
}

export type Reply = Record<string, unknown>;

interface Job {
  payload: Reply;
  attempts: number;
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

/** One running child and the reader of its stdout lines. */
interface Session {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  partial: string;
  stderr: string;
  /** Set while someone waits for a line; called with the line, or an error when the child is gone. */
  waiter: ((line: string | Error) => void) | undefined;
  gone: Error | undefined;
}

/**
 * A long-lived child process that answers newline-delimited JSON requests, one at a time, in order. It
 * starts on the first request, is restarted when it dies, is killed when a request times out, and never
 * keeps Node alive on its own: its handles are referenced only while a request is in flight, and it is
 * killed when this process exits (it also exits by itself when its stdin closes).
 */
export class LineWorker {
  private session: Session | undefined;
  private readonly queue: Job[] = [];
  private pumping = false;
  /** The request being answered, so that close() can fail it instead of retrying it. */
  private current: Job | undefined;
  private nextId = 1;
  /** The first line the current child printed (what it reports about itself). */
  greeting: Reply | undefined;

  constructor(private readonly options: LineWorkerOptions) {}

  /** Process id of the running child, if any (tests use it to kill the worker from outside). */
  get pid(): number | undefined {
    return this.session?.child.pid;
  }

  request(payload: Reply): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.queue.push({ payload, attempts: 0, resolve, reject });
      void this.pump();
    });
  }

  /** Kill the child and fail pending requests; a later request starts a new child. */
  close(): void {
    for (const job of this.queue.splice(0)) job.reject(new WorkerCrashedError("lint worker closed"));
    if (this.current) this.current.attempts = MAX_ATTEMPTS;
    if (this.session) this.stop(this.session);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let job = this.queue.shift(); job; job = this.queue.shift()) await this.run(job);
    } finally {
      this.pumping = false;
    }
  }

  private async run(job: Job): Promise<void> {
    job.attempts++;
    let session: Session;
    try {
      session = this.session ?? (await this.start());
    } catch (error) {
      // Nothing queued can do better than this attempt did: fail them all now, not one start each.
      for (const queued of [job, ...this.queue.splice(0)]) queued.reject(error as Error);
      return;
    }
    this.current = job;
    try {
      job.resolve(await this.exchange(session, job.payload));
    } catch (error) {
      if (error instanceof WorkerCrashedError && job.attempts < MAX_ATTEMPTS) this.queue.unshift(job);
      else job.reject(error as Error);
    } finally {
      this.current = undefined;
    }
  }

  private async start(): Promise<Session> {
    const { command, args, startTimeoutMs = WORKER_START_TIMEOUT_MS } = this.options;
    // cwd outside any workspace; the child must not find modules or config next to the model's files.
    const child = spawn(command, args, { cwd: tmpdir() });
    const session: Session = {
      child,
      lines: [],
      partial: "",
      stderr: "",
      waiter: undefined,
      gone: undefined,
    };
    const onExit = () => child.kill();
    process.once("exit", onExit);
    const end = (error: Error) => {
      process.removeListener("exit", onExit);
      if (session.gone) return;
      session.gone = error;
      if (this.session === session) this.session = undefined;
      session.waiter?.(error);
    };
    child.on("error", (err) => end(new WorkerCrashedError(`${command} could not run: ${err.message}`)));
    // "close", not "exit": it comes after stdout is drained, so a last line (a refusal to start) is not lost.
    child.on("close", (code, signal) => {
      const tail = session.stderr.trim() ? `: ${session.stderr.trim()}` : "";
      end(new WorkerCrashedError(`lint worker exited (${signal ?? `code ${code}`})${tail}`));
    });
    child.stdin.on("error", () => {}); // EPIPE after a crash; the exit handler reports it.
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.receive(session, chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      session.stderr = (session.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.unref();
    try {
      const hello = JSON.parse(await this.nextLine(session, startTimeoutMs)) as Reply;
      if (hello.ready !== true)
        throw new WorkerUnavailableError(`lint worker cannot run: ${String(hello.error)}`);
      this.greeting = hello;
      this.session = session;
      return session;
    } catch (error) {
      this.stop(session);
      if (error instanceof WorkerUnavailableError) throw error;
      throw new WorkerUnavailableError(`lint worker did not start: ${(error as Error).message}`);
    }
  }

  private async exchange(session: Session, payload: Reply): Promise<Reply> {
    const id = this.nextId++;
    session.child.stdin.write(`${JSON.stringify({ ...payload, id })}\n`);
    const line = await this.nextLine(session, this.options.requestTimeoutMs);
    let reply: Reply;
    try {
      reply = JSON.parse(line) as Reply;
    } catch {
      reply = {};
    }
    if (reply.id !== id) {
      this.stop(session);
      throw new WorkerCrashedError(`lint worker answered out of turn: ${line.slice(0, 200)}`);
    }
    return reply;
  }

  /** The next stdout line, with the child's handles referenced meanwhile so that Node waits for it. */
  private nextLine(session: Session, timeoutMs: number): Promise<string> {
    const ready = session.lines.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (session.gone) return Promise.reject(session.gone);
    return new Promise((resolve, reject) => {
      const settle = (line: string | Error) => {
        clearTimeout(timer);
        session.waiter = undefined;
        setRef(session, false);
        if (typeof line === "string") resolve(line);
        else reject(line);
      };
      const timer = setTimeout(() => {
        settle(new WorkerTimeoutError(`lint worker gave no answer within ${timeoutMs} ms and was killed`));
        this.stop(session);
      }, timeoutMs);
      setRef(session, true);
      session.waiter = settle;
    });
  }

  private receive(session: Session, chunk: string): void {
    const parts = (session.partial + chunk).split("\n");
    session.partial = parts.pop() ?? "";
    for (const line of parts) {
      if (session.waiter) session.waiter(line);
      else session.lines.push(line);
    }
  }

  /** Kill the child; whoever waits for its next line is told it crashed. */
  private stop(session: Session): void {
    if (this.session === session) this.session = undefined;
    session.child.kill("SIGKILL");
    session.waiter?.(new WorkerCrashedError("lint worker was stopped"));
  }
}

/** Child pipes are sockets; typed as plain streams, so reach their ref/unref through a narrow view. */
function setRef(session: Session, on: boolean): void {
  const { stdin, stdout, stderr } = session.child;
  for (const stream of [stdin, stdout, stderr]) {
    const handle = stream as unknown as { ref?: () => void; unref?: () => void };
    if (on) handle.ref?.();
    else handle.unref?.();
  }
}
