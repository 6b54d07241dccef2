import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { HELPER_SOURCE } from "./helper-source.js";

/** System interpreters only: a pyenv shim on PATH costs ~120 ms and is the user's to change. */
const PYTHONS = ["/usr/bin/python3", "/usr/local/bin/python3"];

/** A request that failed in the helper: the errno and its text, phrased without the target. */
export class HelperCallError extends Error {
  constructor(
    readonly errno: number,
    message: string,
  ) {
    super(message);
    this.name = "HelperCallError";
  }
}

/** errno values the callers tell apart (Linux). */
export const ERRNO = { ENOENT: 2, EAGAIN: 11, EEXIST: 17 } as const;

export type HelperReply = Record<string, unknown>;

interface Waiter {
  resolve: (reply: HelperReply) => void;
  reject: (e: Error) => void;
}

/**
 * The Node side of the workspace helper (helper-source.ts): requests carry an id, replies may come
 * out of order (slow requests run in threads). Only this process holds the helper's pipes.
 */
export class HostHelper {
  private readonly pending = new Map<number, Waiter>();
  private nextId = 0;
  private dead: string | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    const fail = (why: string) => {
      this.dead ??= why;
      for (const w of this.pending.values()) w.reject(new HelperCallError(0, `the workspace helper ${why}`));
      this.pending.clear();
    };
    child.on("error", (e) => fail(`failed: ${e.message}`));
    child.on("exit", (code, signal) => fail(`exited (${signal ?? code})`));
    child.stdin.on("error", () => undefined); // reported through "exit"
    createInterface({ input: child.stdout }).on("line", (line) => {
      const reply = JSON.parse(line) as HelperReply & { id: number; errno: number; error: string };
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.hold(false);
      if (reply.errno === 0) waiter?.resolve(reply);
      else waiter?.reject(new HelperCallError(reply.errno, `${reply.error} (errno ${reply.errno})`));
    });
    // The helper must not keep this process alive when idle (it exits when our end of the pipe
    // closes, which is also what releases its locks), but must while a reply is awaited: see hold().
    child.unref();
    this.hold(false);
  }

  static start(): HostHelper | undefined {
    const python = PYTHONS.find((p) => existsSync(p));
    if (!python) return undefined;
    const child = spawn(python, ["-I", "-S", "-c", HELPER_SOURCE], { env: {}, stdio: "pipe" });
    return new HostHelper(child);
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  call(op: string, args: Record<string, unknown>): Promise<HelperReply> {
    if (this.dead) return Promise.reject(new HelperCallError(0, `the workspace helper ${this.dead}`));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.hold(true);
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }

  /** Stop the helper (tests); it also stops by itself when this process exits, releasing its locks. */
  stop(): void {
    this.child.stdin.end();
  }

  /** Keep the event loop alive through the helper's pipes only while replies are outstanding. */
  private hold(on: boolean): void {
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) {
      const handle = stream as unknown as { ref?: () => void; unref?: () => void };
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  }
}

/** undefined: not started yet; null: no system python3. */
let shared: HostHelper | null | undefined;

/** This process's helper, started on first use; undefined without a system python3 or once it died. */
export function sharedHelper(): HostHelper | undefined {
  if (shared === undefined) shared = HostHelper.start() ?? null;
  return shared?.alive ? shared : undefined;
}
