import { lchownSync, lstatSync, readdirSync, statSync } from "node:fs";
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
 * Make `root` and everything under it owned by `uid:gid`, so the sandbox user can write its own
 * workspace. lchown, never chown: a symlink planted in the workspace must not hand its target over.
 * Returns the number of entries changed. Only entries with another owner are touched, so a second
 * call over an adopted tree costs one lstat per entry.
 */
export function adoptTree(root: string, uid: number, gid: number): number {
  let changed = 0;
  const visit = (path: string, isDir: boolean) => {
    const st = lstatSync(path);
    if (st.uid !== uid || st.gid !== gid) {
      lchownSync(path, uid, gid);
      changed++;
    }
    if (!isDir) return;
    for (const entry of readdirSync(path, { withFileTypes: true }))
      visit(posix.join(path, entry.name), entry.isDirectory());
  };
  visit(root, true);
  return changed;
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
