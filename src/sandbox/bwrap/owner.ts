import {
  closeSync,
  constants,
  type Dirent,
  fchownSync,
  fstatSync,
  lchownSync,
  lstatSync,
  openSync,
  readdirSync,
  statSync,
} from "node:fs";
import { posix } from "node:path";

/**
 * Who the sandboxed program is on the host. Run by an ordinary user, acilab's sandboxes run as that
 * user (bwrap maps it to uid 1000 inside). Run as root, they must not: root inside a user namespace
 * that maps to host root keeps root's hold on every root-owned file it can reach — measured here, it
 * reads /etc/shadow — and RLIMIT_NPROC does not apply to it. So as root the wrapper drops to this
 * dedicated uid/gid before bwrap starts, and bwrap maps it to uid 1000 inside.
 *
 * 61000: no Debian package allocates it (their range is 60000–64999, allocated by name on install, and
 * this is not one of them), it is below 65534 so every tool formats it, and it owns nothing else.
 */
export const SANDBOX_UID = 61000;
export const SANDBOX_GID = 61000;

export interface HostIdentity {
  uid: number;
  gid: number;
  /** True when acilab runs as root and the sandbox therefore runs as a different, unprivileged uid. */
  switched: boolean;
}

export function sandboxIdentity(requested: { uid?: number; gid?: number } = {}): HostIdentity {
  const self = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  if (self.uid !== 0) return { ...self, switched: false };
  const uid = requested.uid ?? SANDBOX_UID;
  const gid = requested.gid ?? SANDBOX_GID;
  if (uid === 0 || gid === 0)
    throw new Error("sandbox: uid/gid 0 is root; give the bwrap sandbox an unprivileged uid");
  return { uid, gid, switched: true };
}

/**
 * Levels below the root adoptTree descends. Each level holds one open descriptor while its subtree is
 * walked; 512 stays well inside the 1,024 a process may have by default, and no source tree comes
 * close (node_modules nests ~20 deep). Only a program can build deeper — as the sandbox user, whose
 * entries are its own already — so what lies below is skipped, with a note.
 */
export const MAX_ADOPT_DEPTH = 512;

/** A directory opened for walking: never through a symlink, never blocking on a FIFO swapped in. */
const OPEN_DIR = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Make `root` and everything under it owned by `uid:gid`, so the sandbox user can write its own
 * workspace. Returns the number of entries changed. Only entries with another owner are touched, so a
 * second call over an adopted tree costs one lstat per entry.
 *
 * The tree may be a program's work, so it is walked relative to open directories: each entry is
 * reached as /proc/self/fd/<its directory>/<name>, a short path however deep the tree (a program can
 * nest past PATH_MAX), directories are opened with O_NOFOLLOW and changed through their descriptor, and
 * everything else is lchown'd — a symlink planted in the workspace never hands its target over.
 * `note` hears about what was skipped (a subtree below MAX_ADOPT_DEPTH, an entry that vanished).
 */
export function adoptTree(root: string, uid: number, gid: number, note?: (why: string) => void): number {
  let changed = 0;
  const adopt = (fd: number) => {
    const st = fstatSync(fd);
    if (st.uid === uid && st.gid === gid) return;
    fchownSync(fd, uid, gid);
    changed++;
  };
  const rootFd = openSync(root, OPEN_DIR);
  const stack: Array<{ fd: number; names: Dirent[]; next: number }> = [];
  try {
    adopt(rootFd);
    stack.push({ fd: rootFd, names: list(rootFd), next: 0 });
    let skipped = 0;
    for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
      const entry = top.names[top.next++];
      if (entry === undefined) {
        if (top.fd !== rootFd) closeSync(top.fd);
        stack.pop();
        continue;
      }
      const at = `/proc/self/fd/${top.fd}/${entry.name}`;
      if (entry.isDirectory()) {
        if (stack.length > MAX_ADOPT_DEPTH) {
          skipped++;
          continue;
        }
        let fd: number | undefined;
        try {
          fd = openSync(at, OPEN_DIR);
        } catch {
          // Replaced by a symlink or a file since it was listed: treated as one below, never followed.
        }
        if (fd !== undefined) {
          try {
            adopt(fd);
            stack.push({ fd, names: list(fd), next: 0 });
          } catch (err) {
            closeSync(fd);
            throw err;
          }
          continue;
        }
      }
      const st = lstatSync(at, { throwIfNoEntry: false });
      if (!st) note?.(`${entry.name} vanished while the workspace was handed over`);
      else if (st.uid !== uid || st.gid !== gid) {
        lchownSync(at, uid, gid);
        changed++;
      }
    }
    if (skipped > 0)
      note?.(
        `${skipped} director${skipped === 1 ? "y" : "ies"} nested deeper than ${MAX_ADOPT_DEPTH} levels in ${root} kept their owner: only a program builds trees that deep, as the sandbox user`,
      );
  } finally {
    for (const { fd } of stack) if (fd !== rootFd) closeSync(fd);
    closeSync(rootFd);
  }
  return changed;
}

/** The entries of an open directory. */
function list(fd: number): Dirent[] {
  return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
}

/**
 * bwrap runs as the sandbox user and opens every bound path itself, so each directory above it must
 * let that user search it (x). mkdtemp directories are 0700: a workspace nested in one is unreachable.
 * Throws an error naming the directory and the fix.
 */
export function assertReachable(path: string, id: HostIdentity, what: string): void {
  if (!id.switched) return;
  let dir = posix.dirname(path);
  const blocked: string[] = [];
  for (;;) {
    const st = statSync(dir);
    const search =
      (st.mode & 0o001) !== 0 ||
      (st.uid === id.uid && (st.mode & 0o100) !== 0) ||
      (st.gid === id.gid && (st.mode & 0o010) !== 0);
    if (!search) blocked.push(dir);
    if (dir === "/") break;
    dir = posix.dirname(dir);
  }
  if (blocked.length > 0)
    throw new Error(
      `sandbox: ${what} ${path} is unreachable for the sandbox user (uid ${id.uid}): ${blocked.join(", ")} ${blocked.length === 1 ? "is" : "are"} not searchable by it — create it under a world-searchable directory (such as the system temp directory) or chmod o+x ${blocked[0]}`,
    );
}
