import type { Readable, Writable } from "node:stream";
import { HeadTailBuffer } from "./output-cap.js";
import type { ExecResult } from "./types.js";

/** After the main process exits, how long to let its pipes drain before we close them ourselves. */
const PIPE_DRAIN_GRACE_MS = 200;

/** A started command as the exit watch needs it: any backend's child (spawn's, or bwrap's spawner's). */
export interface Watched {
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  once(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: "error", listener: (err: Error) => void): unknown;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Set when the program never started (spawn failed). */
  spawnError?: Error;
}

/**
 * The wall clock every backend keeps on a command: `onTimeout` once `timeoutMs` has passed (the
 * backend's own way to kill it), and the command's exit — however it ends, the timer goes with it.
 */
export async function watchExit(child: Watched, timeoutMs: number, onTimeout: () => void): Promise<Exit> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    onTimeout();
  }, timeoutMs);
  const exit = await new Promise<Omit<Exit, "timedOut">>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once("error", (err) => resolve({ code: null, signal: null, spawnError: err }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  return { ...exit, timedOut };
}

/** SIGKILL a whole process group; a group that is already gone is fine. */
export function killGroup(pgid: number | undefined): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Wait (briefly) for the streams to close by themselves, then close them: a descendant that kept a
 * pipe open (a daemonized grandchild of the process backend) must not hold the result back. The grace
 * ends only after a turn of the event loop has read what was already buffered — each turn runs its
 * timers before its I/O, so a loop that was busy when the command ended would otherwise stop waiting
 * before reading output that had arrived in time.
 */
export async function drain(...streams: Array<Readable | undefined | null>): Promise<void> {
  const open = streams.filter((s): s is Readable => !!s && !s.readableEnded && !s.destroyed);
  const grace = async () => {
    await new Promise<void>((r) => setTimeout(r, PIPE_DRAIN_GRACE_MS));
    await new Promise<void>((r) => setImmediate(r)); // after this turn's I/O poll
  };
  await Promise.race([
    Promise.all(open.map((s) => new Promise<void>((r) => s.once("close", () => r())))),
    grace(),
  ]);
  for (const s of streams) s?.destroy();
}

/**
 * A child's stdout and stderr, each capped, plus both interleaved in arrival order; and its stdin,
 * written once and closed. Shared by every backend so they all report output the same way.
 */
export class OutputCapture {
  private readonly combined: HeadTailBuffer;
  private readonly stdout: HeadTailBuffer;
  private readonly stderr: HeadTailBuffer;
  private readonly started = performance.now();

  constructor(limit: number) {
    this.combined = new HeadTailBuffer(limit);
    this.stdout = new HeadTailBuffer(limit);
    this.stderr = new HeadTailBuffer(limit);
  }

  attach(
    child: { stdin: Writable | null; stdout: Readable | null; stderr: Readable | null },
    stdin = "",
  ): void {
    for (const [stream, own] of [
      [child.stdout, this.stdout],
      [child.stderr, this.stderr],
    ] as const) {
      stream?.setEncoding("utf8");
      stream?.on("data", (d: string) => {
        own.push(d);
        this.combined.push(d);
      });
    }
    child.stdin?.on("error", () => {}); // a program that never reads stdin closes it early; that's fine
    child.stdin?.end(stdin);
  }

  /** stderr so far (bwrap reads it to tell its own setup failures from the command's). */
  get stderrText(): string {
    return this.stderr.text();
  }

  result(exit: { exitCode: number | null; signal: string | null; timedOut: boolean }): ExecResult {
    return {
      ...exit,
      output: this.combined.text(),
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      truncatedChars: this.combined.cut,
      durationMs: performance.now() - this.started,
    };
  }
}
