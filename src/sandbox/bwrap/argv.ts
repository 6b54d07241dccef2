import { existsSync, lstatSync, readdirSync, readlinkSync } from "node:fs";
import { posix } from "node:path";
import { forwarderArgv, PROXY_MOUNT, proxyEnvironment } from "../net/index.js";

/** Where the workspace appears inside every sandbox. */
export const WORKSPACE_MOUNT = "/workspace";
/** The uid/gid the sandboxed program has inside its user namespace (mapped to an unprivileged host uid). */
export const INSIDE_UID = 1000;
export const INSIDE_HOME = "/tmp";
/**
 * Size cap of the private /tmp (and /dev/shm) tmpfs. Its pages are charged to the sandbox's memory
 * cgroup as well; this cap is what holds when there is no cgroup. 1 GiB fits a test suite's scratch.
 */
export const TMPFS_BYTES = 1024 ** 3;

/**
 * The parts of the host's /etc a program needs: the dynamic loader's cache, name-service and locale
 * files, CA certificates, the Debian alternatives (most of /usr/bin's `awk`, `cc`, `java` point there)
 * and the interpreters' own config. Everything else stays out — /etc/pip.conf, npmrc, gitconfig,
 * wgetrc and environment are where machines keep tokens, and shadow files need no mention.
 */
export const ETC_ALLOWLIST = [
  "alternatives",
  "bash.bashrc",
  "ca-certificates.conf",
  "debian_version",
  "fonts",
  "gai.conf",
  "host.conf",
  "hosts",
  "inputrc",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "locale.alias",
  "localtime",
  "magic",
  "magic.mime",
  "mime.types",
  "mtab",
  "networks",
  "nsswitch.conf",
  "os-release",
  "perl",
  "protocols",
  "python3",
  "services",
  "shells",
  "ssl",
  "terminfo",
  "timezone",
] as const;

/** /etc entries matched by prefix because their names carry versions (python3.11, java-17-openjdk). */
const ETC_ALLOWED_PREFIXES = ["python3.", "java-"];

/** How the host's root is laid out: what the minimal root mirrors. */
export interface RootLayout {
  /** Top-level entries that are symlinks on the host (Debian merged /usr): name → target. */
  symlinks: Array<{ name: string; target: string }>;
  /** Top-level directories bound read-only as they are (always /usr; /bin etc. on unmerged hosts). */
  dirs: string[];
  /** Allowlisted entries of the host's /etc (absolute paths), copied into the sandbox's /etc. */
  etc: string[];
}

const TOP_LEVEL = ["usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"];

/** Read the host's layout once: merged-usr symlinks are recreated, real directories bound. */
export function detectRootLayout(root = "/"): RootLayout {
  const layout: RootLayout = { symlinks: [], dirs: [], etc: [] };
  for (const name of TOP_LEVEL) {
    const path = posix.join(root, name);
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) layout.symlinks.push({ name, target: readlinkSync(path) });
    else if (st.isDirectory()) layout.dirs.push(`/${name}`);
  }
  const etcDir = posix.join(root, "etc");
  if (existsSync(etcDir)) {
    const names = readdirSync(etcDir);
    const allowed = new Set<string>(ETC_ALLOWLIST);
    for (const name of names.sort()) {
      if (allowed.has(name) || ETC_ALLOWED_PREFIXES.some((p) => name.startsWith(p)))
        layout.etc.push(`/etc/${name}`);
    }
  }
  return layout;
}

export interface BwrapArgsSpec {
  layout: RootLayout;
  /** Host directory mounted read-only as /etc (see etc.ts: the allowlisted entries, our passwd/group). */
  etcDir: string;
  /** Descriptor (as bwrap sees it) from which bwrap reads the seccomp filter. */
  seccompFd: number;
  /** Descriptor bwrap reports on in JSON; `"exit-code"` there means the program really ran. */
  statusFd: number;
  /** Real host path of the workspace (mounted read-write at /workspace). */
  workspace: string;
  /** Extra host paths mounted read-only: `source` is the real host path, `dest` where it appears inside. */
  readOnly: Array<{ source: string; dest: string }>;
  /** Extra host directories mounted read-write (an environment layer while it is built). */
  writable?: Array<{ source: string; dest: string }>;
  /** Working directory inside, e.g. /workspace/src. */
  cwd: string;
  /** The complete environment of the program (bwrap starts from an empty one). */
  env: Record<string, string>;
  argv: string[];
  hostname?: string;
  /**
   * Host directory of the network proxy's socket, when the network allowlist is on: mounted read-only
   * at PROXY_MOUNT, the relay put in front of argv and HTTP(S)_PROXY pointed at it (see ../net/).
   */
  proxyDir?: string;
}

/**
 * The boundary every bwrap program of acilab's gets (the coding sandbox and the browser box): every
 * namespace unshared, an unprivileged uid with no capabilities, and a read-only minimal root — the
 * layout's dirs and merged-usr symlinks, the curated /etc, private /proc, /dev, /tmp and /dev/shm.
 * `nestedSandbox` leaves user namespaces on below it (a program that sandboxes itself, as Chromium does).
 */
export function boundaryArgs(spec: {
  layout: RootLayout;
  etcDir: string;
  hostname: string;
  nestedSandbox: boolean;
}): string[] {
  const a = ["--unshare-all", "--unshare-user"];
  if (!spec.nestedSandbox) a.push("--disable-userns");
  a.push("--uid", String(INSIDE_UID), "--gid", String(INSIDE_UID));
  a.push("--hostname", spec.hostname, "--die-with-parent", "--new-session", "--cap-drop", "ALL");
  for (const dir of spec.layout.dirs) a.push("--ro-bind", dir, dir);
  for (const { name, target } of spec.layout.symlinks) a.push("--symlink", target, `/${name}`);
  a.push("--ro-bind", spec.etcDir, "/etc");
  a.push("--proc", "/proc", "--dev", "/dev");
  a.push("--size", String(TMPFS_BYTES), "--tmpfs", "/tmp");
  a.push("--size", String(TMPFS_BYTES), "--tmpfs", "/dev/shm");
  return a;
}

/**
 * The bwrap command line for one exec: a minimal read-only root (tmpfs with /usr, the curated /etc
 * and merged-usr symlinks), private /proc, /dev, /tmp and /dev/shm, the workspace read-write
 * at /workspace, every namespace unshared (the network one keeps only loopback), an unprivileged uid
 * with no capabilities, no user namespaces below this one, and the seccomp filter. Pure: the spawn
 * and the descriptors are the caller's.
 */
export function buildBwrapArgs(spec: BwrapArgsSpec): string[] {
  const a = boundaryArgs({ ...spec, hostname: spec.hostname ?? "sandbox", nestedSandbox: false });
  a.push("--bind", spec.workspace, WORKSPACE_MOUNT);
  for (const { source, dest } of spec.writable ?? []) a.push("--bind", source, dest);
  for (const { source, dest } of spec.readOnly) a.push("--ro-bind", source, dest);
  // Read-only is enough: connect() on a socket needs write permission on the inode, not the mount.
  if (spec.proxyDir !== undefined) a.push("--ro-bind", spec.proxyDir, PROXY_MOUNT);
  // Everything above is in place: the root itself becomes read-only (its tmpfs children stay writable).
  a.push("--remount-ro", "/");
  a.push("--chdir", spec.cwd);
  a.push("--clearenv");
  const proxied = spec.proxyDir !== undefined;
  // The caller's variables win: a task that needs NO_PROXY wider (or a proxy of its own) can say so.
  const env = proxied ? { ...proxyEnvironment(), ...spec.env } : spec.env;
  for (const [key, value] of Object.entries(env)) a.push("--setenv", key, value);
  a.push("--seccomp", String(spec.seccompFd));
  a.push("--json-status-fd", String(spec.statusFd));
  a.push("--", ...(proxied ? forwarderArgv(spec.argv) : spec.argv));
  return a;
}

/** /etc/passwd and /etc/group inside: the sandbox user by name, and root/nobody for `ls -l`. */
export function identityFiles(): { passwd: string; group: string } {
  return {
    passwd: [
      "root:x:0:0:root:/root:/usr/sbin/nologin",
      `sandbox:x:${INSIDE_UID}:${INSIDE_UID}:acilab sandbox:${INSIDE_HOME}:/bin/bash`,
      "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
      "",
    ].join("\n"),
    group: ["root:x:0:", `sandbox:x:${INSIDE_UID}:`, "nogroup:x:65534:", ""].join("\n"),
  };
}
