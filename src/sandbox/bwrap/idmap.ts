import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { posix } from "node:path";
import { IDMAP_HELPER } from "./idmap-source.js";
import type { HostIdentity } from "./owner.js";

/**
 * A user's own directory as the sandbox's workspace (`acilab sandbox exec --workspace DIR`), when
 * acilab runs as root and the program as the unprivileged sandbox uid. Handing DIR over (adoptTree)
 * would take it from its owner; binding it as it is leaves a root-owned 0700 directory unreachable
 * and a 0755 one read-only. Instead the program sees DIR through an idmapped mount (Linux 5.12+, on
 * ext4, xfs, btrfs, tmpfs, overlayfs…) that maps DIR's owner — and only DIR's owner — to the sandbox
 * uid: inside, DIR and its owner's files are the program's own; what it creates lands on disk as
 * DIR's owner's; files of anyone else stay out of reach (they show as nobody); the program is the
 * unprivileged uid everywhere else.
 *
 * The mount is made inside a private mount namespace created for each command just before bwrap
 * starts (idmap-source.ts), over an empty directory that every such sandbox shares: nothing of it
 * exists in the host's mount table, so nothing is left behind when acilab dies, and no host process
 * can reach DIR through it.
 */
export interface OwnerMapping {
  /** The user's directory (real path). */
  source: string;
  /** Where the idmapped view appears inside the private mount namespace; bwrap binds it. */
  target: string;
  owner: { uid: number; gid: number };
  sandbox: { uid: number; gid: number };
}

/** System interpreters only: a pyenv shim on PATH is the user's to change, and slow. */
const PYTHONS = ["/usr/bin/python3", "/usr/local/bin/python3"];

/**
 * The mapping for `dir`, or undefined when none is needed (acilab is not root, or DIR already belongs
 * to the sandbox uid). Tries it once and throws an error that names DIR, the kernel's reason and what
 * to do instead when this machine cannot do it (an older kernel, a file system without idmapped
 * mounts, no python3).
 */
export function ownerMapping(dir: string, identity: HostIdentity): OwnerMapping | undefined {
  if (!identity.switched) return undefined;
  const st = lstatSync(dir);
  if (st.uid === identity.uid && st.gid === identity.gid) return undefined;
  const mapping: OwnerMapping = {
    source: dir,
    target: mountTarget(),
    owner: { uid: st.uid, gid: st.gid },
    sandbox: { uid: identity.uid, gid: identity.gid },
  };
  try {
    execFileSync(python(dir, identity), helperArgs(mapping, "probe"), {
      env: {},
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    const why = (e.stderr?.toString() || e.message).trim().replace(/^acilab sandbox wrapper: /, "");
    throw new Error(refusal(dir, identity, why));
  }
  return mapping;
}

/** The argv that makes the mount and then runs `rest` (setpriv … bwrap …) in the same process. */
export function mappingPrefix(mapping: OwnerMapping): string[] {
  return [python(mapping.source), ...helperArgs(mapping, "exec"), "--"];
}

function helperArgs(m: OwnerMapping, mode: "probe" | "exec"): string[] {
  const ids = [m.owner.uid, m.owner.gid, m.sandbox.uid, m.sandbox.gid].map(String);
  return ["-I", "-S", "-c", IDMAP_HELPER, mode, m.source, m.target, ...ids];
}

function python(dir: string, identity?: HostIdentity): string {
  const found = PYTHONS.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      refusal(dir, identity, "python3 is not installed, and acilab makes the idmapped mount through it"),
    );
  return found;
}

function refusal(dir: string, identity: HostIdentity | undefined, why: string): string {
  const uid = identity?.uid ?? 61000;
  return `sandbox: cannot show ${dir} to the sandbox user (uid ${uid}) as its own: ${why}. Run acilab as the directory's owner instead of root (the sandbox then runs as that user), or give the directory to the sandbox user first (chown -R ${uid}:${identity?.gid ?? uid} ${dir})`;
}

let target: string | undefined;
/**
 * The empty directory the idmapped views are mounted over: one per uid in the system temp directory,
 * searchable by the sandbox user (bwrap, running as it, opens the path) and writable by no one else.
 * Someone else's directory under that name is never used: a private one is made instead.
 */
function mountTarget(parent: string = tmpdir()): string {
  if (target) return target;
  const shared = posix.join(parent, `acilab-idmap-${process.getuid?.() ?? 0}`);
  let base = shared;
  try {
    mkdirSync(shared, { mode: 0o711 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  if (!ours(shared)) base = mkdtempSync(`${shared}-`);
  chmodSync(base, 0o711);
  const ws = posix.join(base, "ws");
  if (!existsSync(ws)) mkdirSync(ws, { mode: 0o755 });
  if (!ours(ws)) throw new Error(`sandbox: ${ws} is not a directory acilab made; remove it and retry`);
  target = ws;
  return ws;
}

function ours(dir: string): boolean {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  return st?.isDirectory() === true && st.uid === (process.getuid?.() ?? 0) && (st.mode & 0o022) === 0;
}
