import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { constants, existsSync, openSync } from "node:fs";
import { Socket } from "node:net";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { SPAWNER_SOURCE } from "./spawner-source.js";

/** System interpreters only (as for the mount helper): a pyenv shim on PATH costs ~120 ms a start. */
const PYTHONS = ["/usr/bin/python3", "/usr/local/bin/python3"];

export interface SpawnRequest {
  argv: string[];
  env: Record<string, string>;
  /** Files to write 0 into (the cgroup's joinFiles) before dropping to `uid`. */
  join: string[];
  /** RLIMIT_* by the spawner's names (cpu, fsize, as, nofile, core): soft = hard = value. */
  rlimits: Record<string, number>;
  /** Drop to this uid/gid (and no supplementary groups) before the exec; null keeps the spawner's. */
  uid: number | null;
  gid: number | null;
  /** The child's descriptors that are pipes to us: "r" the child reads it, "w" the child writes it. */
  pipes: Record<number, "r" | "w">;
  /** Bytes the child finds on descriptor `fd` (then EOF): bwrap's seccomp filter. */
  seccomp?: { fd: number; data: Buffer };
}

/** What the spawner started: the subset of a ChildProcess the sandbox uses. */
export class SpawnedChild extends EventEmitter {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;

  constructor(
    readonly pid: number,
    readonly streams: Map<number, Socket>,
  ) {
    super();
    this.stdin = streams.get(0) ?? null;
    this.stdout = streams.get(1) ?? null;
    this.stderr = streams.get(2) ?? null;
  }

  exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit("exit", code, signal);
  }
}

type Reply = { id: number; pid?: number; fds?: Record<string, number>; error?: string };

/** The harness's side of the spawner (spawner-source.ts says why it exists). */
export class Spawner {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private readonly children = new Map<number, SpawnedChild>();
  /** Exits reported before spawn() got to register the child (its reply and exit in one read). */
  private readonly early = new Map<number, [number | null, NodeJS.Signals | null]>();
  private dead: string | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    const fail = (why: string) => {
      this.dead ??= why;
      for (const p of this.pending.values()) p.reject(new Error(`the sandbox spawner ${why}`));
      this.pending.clear();
      // Its children died with it (bwrap --die-with-parent): say so to whoever waits for them.
      for (const c of this.children.values()) c.exited(null, "SIGKILL");
      this.children.clear();
    };
    child.on("error", (e) => fail(`failed: ${e.message}`));
    child.on("exit", (code, signal) => fail(`exited (${signal ?? code})`));
    child.stdin.on("error", () => undefined); // reported through "exit"
    child.stderr.resume();
    createInterface({ input: child.stdout }).on("line", (line) => this.receive(JSON.parse(line)));
    // Idle, it must not keep this process alive (it exits when our end of its stdin closes).
    child.unref();
    this.hold();
  }

  /** Start one; undefined when there is no system python3. */
  static start(): Spawner | undefined {
    const python = PYTHONS.find((p) => existsSync(p));
    if (!python) return undefined;
    const child = spawn(python, ["-I", "-S", "-c", SPAWNER_SOURCE, String(process.pid)], {
      env: {},
      stdio: "pipe",
    });
    return new Spawner(child);
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  /** Stop it (tests); it also stops by itself when this process exits. */
  stop(): void {
    this.child.stdin.end();
  }

  async spawn(request: SpawnRequest): Promise<SpawnedChild> {
    if (this.dead) throw new Error(`the sandbox spawner ${this.dead}`);
    const id = ++this.nextId;
    const { seccomp, ...rest } = request;
    const wire = {
      op: "spawn",
      id,
      ...rest,
      ...(seccomp ? { seccomp: { fd: seccomp.fd, data: seccomp.data.toString("base64") } } : {}),
    };
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.hold();
      this.child.stdin.write(`${JSON.stringify(wire)}\n`);
    });
    if (reply.error !== undefined || reply.pid === undefined || !reply.fds)
      throw new Error(`the sandbox spawner could not start ${request.argv[0]}: ${reply.error ?? "no pid"}`);
    const streams = new Map<number, Socket>();
    try {
      for (const [target, theirs] of Object.entries(reply.fds)) {
        const childReads = request.pipes[Number(target)] === "r";
        // Our own open of the spawner's end: a new file description, so O_NONBLOCK stays ours.
        const flags = (childReads ? constants.O_WRONLY : constants.O_RDONLY) | constants.O_NONBLOCK;
        const fd = openSync(`/proc/${this.child.pid}/fd/${theirs}`, flags);
        streams.set(Number(target), new Socket({ fd, readable: !childReads, writable: childReads }));
      }
    } catch (err) {
      // Started, but we cannot talk to it: it must not run on unobserved.
      try {
        process.kill(-reply.pid, "SIGKILL");
      } catch {
        // already gone
      }
      for (const s of streams.values()) s.destroy();
      this.early.delete(reply.pid);
      throw err;
    } finally {
      this.child.stdin.write(`${JSON.stringify({ op: "release", pid: reply.pid })}\n`);
    }
    const spawned = new SpawnedChild(reply.pid, streams);
    const early = this.early.get(reply.pid);
    this.early.delete(reply.pid);
    if (early) spawned.exited(...early);
    else this.children.set(reply.pid, spawned);
    this.hold();
    return spawned;
  }

  private receive(
    message: Reply & { exit?: number; code?: number | null; signal?: NodeJS.Signals | null },
  ): void {
    if (message.exit !== undefined) {
      const c = this.children.get(message.exit);
      this.children.delete(message.exit);
      this.hold();
      if (c) c.exited(message.code ?? null, message.signal ?? null);
      else this.early.set(message.exit, [message.code ?? null, message.signal ?? null]);
      return;
    }
    const waiter = this.pending.get(message.id);
    this.pending.delete(message.id);
    this.hold();
    waiter?.resolve(message);
  }

  /** Keep the event loop alive through the spawner's pipes only while a reply or an exit is awaited. */
  private hold(): void {
    const on = this.pending.size > 0 || this.children.size > 0;
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) {
      const handle = stream as unknown as { ref?: () => void; unref?: () => void };
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  }
}

/** undefined: not started yet; null: no system python3 (or it died): the sh wrapper does the job. */
let shared: Spawner | null | undefined;
let enabled = true;

/** Whether sandboxes start through the spawner (default) or the sh wrapper (tests and the bench compare). */
export function useSpawner(on: boolean): void {
  enabled = on;
}

/** This process's spawner, started on first use; null when there is none to use. */
export function sharedSpawner(): Spawner | null {
  if (!enabled) return null;
  if (shared === undefined) shared = Spawner.start() ?? null;
  if (shared && !shared.alive) shared = null;
  return shared;
}
