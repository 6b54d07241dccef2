import { execFileSync } from "node:child_process";
import { chownSync, closeSync, constants, mkdirSync, openSync } from "node:fs";
import { Socket } from "node:net";
import { posix } from "node:path";
import type { ExecChannel } from "../types.js";
import { FIFO_FROM_HOST, FIFO_TO_HOST } from "./spec.js";

/**
 * The exec channel (fds 3 and 4) for gVisor. This runsc has no flag to pass extra descriptors into the
 * container (`runsc help run`/`do`: no --pass-fd or --preserve-fds; only stdio crosses), so the
 * channel is two named pipes in a per-exec directory bound at CHANNEL_MOUNT, opened by the wrapper as
 * fds 3 and 4 (spec.ts) — which needs `--host-fifo=open`, given only to execs with a channel.
 *
 * The host opens both FIFOs O_RDWR: that never blocks (a FIFO open for one direction waits for the
 * other end), and the program's opens never block either, since we already hold both ends. The cost:
 * neither side sees EOF while the other lives — as with bwrap, the streams end when the process does.
 */
export class FifoChannel {
  private readonly sockets: Socket[] = [];
  private readonly fromProgram: Socket;
  private readonly toProgram: Socket;

  constructor(
    readonly dir: string,
    owner: { uid: number; gid: number } | undefined,
  ) {
    mkdirSync(dir, { mode: 0o700 });
    // Node has no mkfifo; coreutils' is on every host that has runsc.
    execFileSync("mkfifo", ["-m", "0600", posix.join(dir, FIFO_TO_HOST), posix.join(dir, FIFO_FROM_HOST)]);
    if (owner)
      for (const p of [dir, posix.join(dir, FIFO_TO_HOST), posix.join(dir, FIFO_FROM_HOST)])
        chownSync(p, owner.uid, owner.gid);
    // Opened before runsc starts, so the program's opens of its ends find us there.
    // One direction per socket: both FIFOs are open O_RDWR, and a socket that also read the FIFO we
    // write to would take the replies meant for the program (it raced, measured).
    const open = (name: string, direction: "read" | "write") => {
      const fd = openSync(posix.join(this.dir, name), constants.O_RDWR | constants.O_NONBLOCK);
      try {
        const socket = new Socket({ fd, readable: direction === "read", writable: direction === "write" });
        // A program that exits (or closes its end) mid-reply makes our writes fail: not our error.
        socket.on("error", () => {});
        this.sockets.push(socket);
        return socket;
      } catch (err) {
        closeSync(fd);
        throw err;
      }
    };
    this.fromProgram = open(FIFO_TO_HOST, "read");
    this.toProgram = open(FIFO_FROM_HOST, "write");
  }

  /** Give the harness its ends, once the program has started. */
  hand(channel: ExecChannel): void {
    channel.open({ fromProgram: this.fromProgram, toProgram: this.toProgram });
  }

  /** Close our ends (the directory goes with the sandbox's state directory). */
  dispose(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.length = 0;
  }
}
