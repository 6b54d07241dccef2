/**
 * The bwrap command line of a box: a long-lived program (Chromium, an X server) inside the same kind
 * of boundary as a sandboxed command — minimal read-only root, curated /etc, private /proc, /dev, /tmp
 * and /dev/shm, every namespace unshared (the network one keeps only loopback), an unprivileged uid,
 * no capabilities, the seccomp filter — but no workspace, and, for a program with a sandbox of its own,
 * user namespaces left on below the box. Pure: the wrapper script around it is wrapper.ts's.
 */

import { boundaryArgs, type RootLayout } from "../bwrap/argv.js";
import { forwarderArgv, PROXY_MOUNT, proxyEnvironment } from "../net/index.js";

/** The box's home and working directory: inside the private /tmp, so it dies with the box. */
export const BOX_HOME = "/tmp/home";
/** The descriptor the wrapper opens the seccomp filter on, for bwrap's --seccomp. */
export const BOX_SECCOMP_FD = 6;

export interface BoxArgsSpec {
  layout: RootLayout;
  /** Host directory mounted read-only as /etc (bwrap/etc.ts: the allowlisted entries, our passwd). */
  etcDir: string;
  /** Host paths visible read-only inside; a source that does not exist is skipped (--ro-bind-try). */
  readOnly: ReadonlyArray<{ source: string; dest: string }>;
  /** Host directories writable inside (an X server's frame buffer and socket directory). */
  writable: ReadonlyArray<{ source: string; dest: string }>;
  /** Variables inside besides HOME, TMPDIR and PATH (bwrap starts from an empty environment). */
  env: Readonly<Record<string, string>>;
  /**
   * Host directory of the proxy's socket: mounted read-only at PROXY_MOUNT, and the relay put in front
   * of the program so it reaches the proxy at PROXY_URL on the box's own loopback. Undefined: no way
   * out at all.
   */
  proxyDir?: string;
  /** Leave user namespaces on inside (the program sandboxes itself, as Chromium does). */
  nestedSandbox: boolean;
  /** The program and its fixed leading arguments; the wrapper appends the caller's. */
  argv: readonly string[];
  hostname?: string;
}

export function buildBoxArgs(spec: BoxArgsSpec): string[] {
  const a = boundaryArgs({ ...spec, hostname: spec.hostname ?? "box" });
  a.push("--dir", BOX_HOME);
  for (const { source, dest } of spec.writable) a.push("--bind", source, dest);
  for (const { source, dest } of spec.readOnly) a.push("--ro-bind-try", source, dest);
  if (spec.proxyDir !== undefined) a.push("--ro-bind", spec.proxyDir, PROXY_MOUNT);
  a.push("--remount-ro", "/");
  a.push("--chdir", BOX_HOME, "--clearenv");
  const env: Record<string, string> = {
    PATH: "/usr/bin:/bin",
    HOME: BOX_HOME,
    TMPDIR: "/tmp",
    LANG: "C.UTF-8",
    ...(spec.proxyDir !== undefined ? proxyEnvironment() : {}),
    ...spec.env,
  };
  for (const [key, value] of Object.entries(env)) a.push("--setenv", key, value);
  a.push("--seccomp", String(BOX_SECCOMP_FD));
  a.push("--", ...(spec.proxyDir !== undefined ? forwarderArgv(spec.argv) : spec.argv));
  return a;
}
