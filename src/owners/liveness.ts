import { lstatSync, mkdirSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { posix } from "node:path";
import { threadId } from "node:worker_threads";

/**
 * Proof of life for what an acilab process leaves on shared ground (its sandboxes' cgroups), that
 * another acilab process can check without seeing its pid: pids are per namespace, and
 * /sys/fs/cgroup may be shared with other containers, so "pid N is not running here" proves nothing.
 *
 * Each process (each worker thread) listens on a Unix socket named by a random token for as long as
 * it lives; the kernel stops the listening when the process dies, however it dies. Another process
 * connects: refused means the socket file is there and nobody listens — the owner is gone. Anything
 * else — a connection, a full backlog, no socket file (another container's /tmp, another user's) — is
 * not proof, and whatever the token names must then be left alone.
 */

/** A token: owner pid and thread (for a person reading `ls`), then 8 random hex digits. */
export const OWNER_TOKEN = /^\d+-\d+-[0-9a-f]{8}$/;

export type OwnerState = "alive" | "dead" | "unknown";

/** Unix socket paths are limited to 108 bytes; a longer marker path cannot exist. */
const MAX_SOCKET_PATH = 107;

/** Where markers live: one private directory per uid in the system temp directory. */
export function ownersDir(parent: string = tmpdir()): string {
  return posix.join(parent, `acilab-owners-${process.getuid?.() ?? 0}`);
}

let mine: { token: string; parent: string; server?: Server } | undefined;

/**
 * This thread's token, its marker created (and listened on) on first use. Never throws: without a
 * marker (an unusable temp directory) the token still names things, which others then leave alone.
 */
export function ownerToken(parent?: string): string {
  if (mine) return mine.token;
  const token = `${process.pid}-${threadId}-${Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, "0")}`;
  mine = { token, parent: parent ?? tmpdir() };
  const path = markerPath(token, parent);
  if (path === undefined || !privateDir(posix.dirname(path))) return token;
  const server = createServer((socket) => socket.destroy());
  server.on("error", () => undefined); // no marker: others see "unknown", which is safe
  server.listen(path);
  server.unref(); // a marker must not keep the process alive
  mine.server = server;
  return token;
}

/** Where this thread's marker is (the `parent` to pass to ownerState), its token made if need be. */
export function ownerParent(): string {
  ownerToken();
  return mine?.parent ?? tmpdir();
}

/** Whether the process holding `token` is alive, dead, or beyond what this process can tell. */
export function ownerState(token: string, parent?: string): Promise<OwnerState> {
  if (mine?.token === token) return Promise.resolve("alive");
  const path = markerPath(token, parent);
  if (path === undefined) return Promise.resolve("unknown");
  const st = lstatSync(path, { throwIfNoEntry: false });
  // A marker forgotten after its owner was proved dead leaves a tombstone: still proof, for whoever
  // asks later (an experiment run resumed after a sandbox sweep removed the dead run's marker).
  if (!st && lstatSync(tombstonePath(path), { throwIfNoEntry: false })?.isFile())
    return Promise.resolve("dead");
  if (!st?.isSocket()) return Promise.resolve("unknown");
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve("alive");
    });
    socket.once("error", (err: NodeJS.ErrnoException) => {
      socket.destroy();
      resolve(err.code === "ECONNREFUSED" ? "dead" : err.code === "EAGAIN" ? "alive" : "unknown");
    });
  });
}

/**
 * Remove the marker of a dead owner once what it named is cleaned up, leaving an empty tombstone
 * (`<token>.dead`) so the owner still reads as dead; tombstones older than a day are pruned here.
 */
export function forgetOwner(token: string, parent?: string): void {
  const path = markerPath(token, parent);
  if (path === undefined) return;
  try {
    writeFileSync(tombstonePath(path), "", { flag: "w", mode: 0o600 });
    unlinkSync(path);
  } catch {
    // gone already
  }
  pruneTombstones(ownersDir(parent));
}

function tombstonePath(marker: string): string {
  return `${marker.slice(0, -".sock".length)}.dead`;
}

const TOMBSTONE_DAYS_MS = 24 * 3600 * 1000;

function pruneTombstones(dir: string): void {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir))
      if (name.endsWith(".dead")) {
        const p = posix.join(dir, name);
        const st = lstatSync(p, { throwIfNoEntry: false });
        if (st?.isFile() && now - st.mtimeMs > TOMBSTONE_DAYS_MS) unlinkSync(p);
      }
  } catch {
    // a tombstone left over costs nothing
  }
}

/** Tokens of every marker in the owners directory (alive or not). */
export function listOwners(parent?: string): string[] {
  try {
    return readdirSync(ownersDir(parent))
      .filter((n) => n.endsWith(".sock"))
      .map((n) => n.slice(0, -".sock".length))
      .filter((t) => OWNER_TOKEN.test(t));
  } catch {
    return [];
  }
}

function markerPath(token: string, parent?: string): string | undefined {
  if (!OWNER_TOKEN.test(token)) return undefined;
  const path = posix.join(ownersDir(parent), `${token}.sock`);
  return path.length <= MAX_SOCKET_PATH ? path : undefined;
}

/** Create (or accept) the owners directory only if it is ours alone: a planted one is never used. */
function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return false;
  }
  const st = lstatSync(dir, { throwIfNoEntry: false });
  return st?.isDirectory() === true && st.uid === (process.getuid?.() ?? 0) && (st.mode & 0o077) === 0;
}
