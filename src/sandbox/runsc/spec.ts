import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import { INSIDE_HOME, type RootLayout, TMPFS_BYTES, WORKSPACE_MOUNT } from "../bwrap/argv.js";
import type { ResourceLimits } from "../types.js";

/** Where the exec channel's two FIFOs appear inside (see channel.ts). */
export const CHANNEL_MOUNT = "/run/acilab-channel";
export const FIFO_TO_HOST = "to-host";
export const FIFO_FROM_HOST = "from-host";

/** One OCI mount entry (runtime-spec config.json, `mounts`). */
export interface OciMount {
  destination: string;
  type: "bind" | "tmpfs" | "proc";
  source: string;
  options?: string[];
}

export interface RunscSpecInput {
  /** Host directory used as the container's (read-only) root: see makeRootfs. */
  rootfs: string;
  layout: RootLayout;
  /** The curated /etc (prepareEtc) and the passwd/group naming the inside uid (identityFiles). */
  etcDir: string;
  passwd: string;
  group: string;
  /** Real host path of the workspace (read-write at /workspace). */
  workspace: string;
  readOnly: Array<{ source: string; dest: string }>;
  /** Host directory holding the channel FIFOs, when the exec has a channel. */
  channelDir?: string;
  uid: number;
  gid: number;
  cwd: string;
  env: Record<string, string>;
  argv: string[];
  limits: ResourceLimits;
}

/**
 * Runs the program through sh so that (a) a missing program reads like a shell's "not found" with
 * exit 127, as in the other backends, instead of a runsc setup error, and (b) a channel's FIFOs can be
 * opened as fds 3 and 4 first. `exec` keeps the program as the container's pid 1.
 */
function wrap(argv: string[], channel: boolean): string[] {
  const open = channel
    ? `exec 3>${CHANNEL_MOUNT}/${FIFO_TO_HOST} 4<${CHANNEL_MOUNT}/${FIFO_FROM_HOST} || exit 125; `
    : "";
  return ["/bin/sh", "-c", `${open}exec "$@"`, "sh", ...argv];
}

/**
 * The OCI config.json for one exec: the read-only root (our skeleton with the host's /usr and the
 * merged-usr symlinks), the curated /etc, private /proc, /dev, /tmp and /dev/shm, the workspace
 * read-write, no capabilities, no new privileges, the allowlisted environment and the rlimits. The
 * network namespace is gVisor's own stack; `--network=none` on the command line leaves it loopback only.
 */
export function buildRunscSpec(s: RunscSpecInput): Record<string, unknown> {
  const ro = ["rbind", "ro"];
  const mounts: OciMount[] = [
    { destination: "/proc", type: "proc", source: "proc" },
    { destination: "/dev", type: "tmpfs", source: "tmpfs" },
    ...s.layout.dirs.map((d): OciMount => ({ destination: d, type: "bind", source: d, options: ro })),
    { destination: "/etc", type: "bind", source: s.etcDir, options: ro },
    { destination: "/etc/passwd", type: "bind", source: s.passwd, options: ro },
    { destination: "/etc/group", type: "bind", source: s.group, options: ro },
    { destination: "/tmp", type: "tmpfs", source: "tmpfs", options: [`size=${TMPFS_BYTES}`, "mode=1777"] },
    {
      destination: "/dev/shm",
      type: "tmpfs",
      source: "tmpfs",
      options: [`size=${TMPFS_BYTES}`, "mode=1777"],
    },
    { destination: WORKSPACE_MOUNT, type: "bind", source: s.workspace, options: ["rbind", "rw"] },
    ...s.readOnly.map(
      (r): OciMount => ({ destination: r.dest, type: "bind", source: r.source, options: ro }),
    ),
  ];
  if (s.channelDir)
    mounts.push({ destination: CHANNEL_MOUNT, type: "bind", source: s.channelDir, options: ["rbind", "rw"] });
  const rlimit = (type: string, value: number) => ({ type, hard: value, soft: value });
  const l = s.limits;
  return {
    ociVersion: "1.0.0",
    process: {
      user: { uid: s.uid, gid: s.gid },
      args: wrap(s.argv, s.channelDir !== undefined),
      env: Object.entries(s.env).map(([k, v]) => `${k}=${v}`),
      cwd: s.cwd,
      capabilities: { bounding: [], effective: [], inheritable: [], permitted: [], ambient: [] },
      noNewPrivileges: true,
      rlimits: [
        rlimit("RLIMIT_CPU", l.cpuSeconds),
        rlimit("RLIMIT_AS", l.addressSpaceBytes),
        rlimit("RLIMIT_FSIZE", l.fileSizeBytes),
        rlimit("RLIMIT_NOFILE", l.openFiles),
        rlimit("RLIMIT_NPROC", l.processes),
        rlimit("RLIMIT_CORE", 0),
      ],
    },
    root: { path: s.rootfs, readonly: true },
    hostname: "sandbox",
    mounts,
    linux: {
      // No user namespace entry: this runsc build cannot start its gofer with uid mappings ("fork/exec
      // /proc/self/exe: invalid argument", measured); the inside uid is the host uid (see sandbox.ts).
      namespaces: ["pid", "network", "ipc", "uts", "mount"].map((type) => ({ type })),
    },
  };
}

/**
 * The container's root directory on the host: empty mount points plus the host's merged-usr symlinks.
 * With `root.readonly` nothing can be created in it, so every mount point must exist beforehand —
 * including the read-only binds' destinations and the channel's.
 */
export function makeRootfs(dir: string, layout: RootLayout, extraMountPoints: string[]): void {
  mkdirSync(dir, { recursive: true });
  const points = [
    "proc",
    "dev",
    "etc",
    "tmp",
    WORKSPACE_MOUNT,
    CHANNEL_MOUNT,
    ...layout.dirs,
    ...extraMountPoints,
  ];
  for (const p of points) mkdirSync(posix.join(dir, p), { recursive: true, mode: 0o755 });
  for (const { name, target } of layout.symlinks) symlinkSync(target, posix.join(dir, name));
}

/** /etc/passwd and /etc/group naming the inside uid "sandbox" (home /tmp), root and nobody. */
export function writeIdentity(dir: string, uid: number, gid: number): { passwd: string; group: string } {
  const users = ["root:x:0:0:root:/root:/usr/sbin/nologin"];
  const groups = ["root:x:0:"];
  if (uid !== 0) users.push(`sandbox:x:${uid}:${gid}:acilab sandbox:${INSIDE_HOME}:/bin/bash`);
  if (gid !== 0) groups.push(`sandbox:x:${gid}:`);
  users.push("nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin");
  groups.push("nogroup:x:65534:");
  const passwd = posix.join(dir, "passwd");
  const group = posix.join(dir, "group");
  writeFileSync(passwd, `${users.join("\n")}\n`, { mode: 0o644 });
  writeFileSync(group, `${groups.join("\n")}\n`, { mode: 0o644 });
  return { passwd, group };
}
