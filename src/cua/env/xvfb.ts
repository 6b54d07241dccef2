/** Start Xvfb on a free display and know when it is ready, without guessing display numbers. */
import { spawn } from "node:child_process";
import { chownSync, existsSync } from "node:fs";
import { join } from "node:path";
import { sandboxIdentity, unprivilegedArgv } from "../../sandbox/index.js";
import type { Size } from "../types.js";
import { type Owned, trackGroup } from "./proc.js";

const XVFB_START_TIMEOUT_MS = 10_000;

export interface StartedXvfb {
  owned: Owned;
  /** ":N" */
  display: string;
  /** Xvfb's screen as a live XWD file (its -fbdir frame buffer). */
  fbFile: string;
}

/**
 * `-displayfd` makes Xvfb pick the first free display itself and write its number once it accepts
 * connections: no race between two environments probing /tmp/.X11-unix at the same time.
 */
export async function startXvfb(screen: Size, fbDir: string): Promise<StartedXvfb> {
  if (!existsSync("/usr/bin/Xvfb")) {
    throw new Error(
      'x11 environment: /usr/bin/Xvfb not found — install Debian\'s "xvfb" (scripts/bootstrap.sh does)',
    );
  }
  const args = [
    "-displayfd",
    "3",
    "-screen",
    "0",
    `${screen.width}x${screen.height}x24`,
    "-nolisten",
    "tcp",
    "-fbdir",
    fbDir,
  ];
  // Not as root: the X server parses what the boxed browser sends it. As the sandbox's uid, with its
  // frame buffer directory handed over (the host reads it as root).
  const drop = unprivilegedArgv();
  const id = sandboxIdentity();
  if (id.switched) chownSync(fbDir, id.uid, id.gid);
  const argv = [...drop, "/usr/bin/Xvfb", ...args];
  const child = spawn(argv[0] as string, argv.slice(1), {
    detached: true,
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  trackGroup(child);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const owned: Owned = { name: "Xvfb", child, stderr: () => stderr.trim() };
  const displayPipe = child.stdio[3];
  const display = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => fail(`did not report a display within ${XVFB_START_TIMEOUT_MS} ms`),
      XVFB_START_TIMEOUT_MS,
    );
    const fail = (why: string) => {
      clearTimeout(timer);
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
      reject(new Error(`x11 environment: Xvfb ${why}: ${stderr.trim().slice(-500)}`));
    };
    displayPipe?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`:${m[1]}`);
      }
    });
    child.once("exit", (code) => fail(`exited with code ${code}`));
  });
  return { owned, display, fbFile: join(fbDir, "Xvfb_screen0") };
}

/** Poll `ready` every 25 ms until true or `timeoutMs`; then throw `message()`. */
export async function waitFor(ready: () => boolean, timeoutMs: number, message: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((r) => setTimeout(r, 25));
  }
}
