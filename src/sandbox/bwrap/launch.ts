import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { ResourceLimits } from "../types.js";
import { devNullFd, inheritableDescriptors } from "./fds.js";
import type { HostIdentity } from "./owner.js";

/** Descriptors as the wrapper and bwrap see them: 0–2 stdio, 3–4 the exec channel, ours above. */
export const FD_GATE = 5;
export const FD_SECCOMP = 6;
export const FD_STATUS = 7;

/** Exit status and stderr prefix of the wrapper when it could not get to bwrap. */
const SETUP_FAILED = 125;
const WRAPPER_FAILED = "acilab sandbox wrapper";

/**
 * The wrapper bwrap starts from: it waits on the gate until the harness has put it in the sandbox's
 * cgroup (so bwrap and all it forks are born inside), sets the rlimits, and becomes bwrap. A fixed
 * script; every value arrives as an argument, never spliced into shell text.
 */
const WRAPPER = `fail() { echo "${WRAPPER_FAILED}: $1" >&2; exit ${SETUP_FAILED}; }
read -r go <&${FD_GATE} || fail "the harness closed the gate"
exec ${FD_GATE}<&-
[ "$1" = channel ] || exec 3<&- 4<&-
ulimit -t "$2" && ulimit -f "$3" && ulimit -v "$4" && ulimit -n "$5" && ulimit -c 0 || fail "ulimit refused"
shift 5
exec "$@"`;

export interface Launched {
  child: ChildProcess;
  /** The wrapper's process group (it becomes bwrap's): what a timeout kills. */
  pgid: number;
  /** The stream on one of the child's descriptors, when it is a pipe. */
  fd(n: number): (Readable & Writable) | undefined;
  /** Hand bwrap its seccomp filter and let the wrapper go on to exec it. */
  release(seccomp: Buffer): void;
  /** Close our ends of the extra descriptors. */
  dispose(): void;
}

/**
 * Start the wrapper, held at its gate, as the sandbox user. The caller puts `pgid` in the cgroup and
 * then calls release(). Descriptors acilab itself inherited (a CI runner's pipe…) would pass through
 * sh and bwrap into the program, so each is covered with /dev/null — sh can close only fds 0–9.
 */
export async function launch(options: {
  command: string[];
  limits: ResourceLimits;
  channel: boolean;
  identity: HostIdentity;
}): Promise<Launched> {
  const channel = options.channel ? "pipe" : "ignore";
  const stdio: Array<"pipe" | "ignore" | number> = ["pipe", "pipe", "pipe", channel, channel];
  stdio[FD_GATE] = "pipe";
  stdio[FD_SECCOMP] = "pipe";
  stdio[FD_STATUS] = "pipe";
  for (const n of inheritableDescriptors(stdio.length)) {
    while (stdio.length < n) stdio.push("ignore");
    stdio[n] = devNullFd();
  }
  const l = options.limits;
  const wrapperArgs = [
    options.channel ? "channel" : "none",
    String(l.cpuSeconds),
    String(Math.floor(l.fileSizeBytes / 512)), // ulimit -f counts 512-byte blocks
    String(Math.floor(l.addressSpaceBytes / 1024)), // ulimit -v counts KiB
    String(l.openFiles),
  ];
  const { identity } = options;
  const child = spawn("/bin/sh", ["-c", WRAPPER, "sh", ...wrapperArgs, ...options.command], {
    cwd: "/",
    // bwrap's own environment is visible in the sandbox as /proc/1/environ: give it nothing.
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    detached: true, // its own process group, so a timeout reaches bwrap and the wrapper together
    stdio,
    ...(identity.switched ? { uid: identity.uid, gid: identity.gid } : {}),
  });
  const fd = (n: number) => (child.stdio[n] as (Readable & Writable) | null | undefined) ?? undefined;
  for (let n = 3; n <= FD_STATUS; n++) fd(n)?.on("error", () => {});
  const spawnError = await new Promise<Error | undefined>((r) => {
    child.once("spawn", () => r(undefined));
    child.once("error", (err) => r(err));
  });
  if (spawnError || child.pid === undefined)
    throw new Error(`sandbox: could not start bwrap: ${spawnError?.message ?? "no pid"}`);
  return {
    child,
    pgid: child.pid,
    fd,
    release(seccomp) {
      fd(FD_SECCOMP)?.end(seccomp);
      fd(FD_GATE)?.end("go\n");
    },
    dispose() {
      for (let n = 3; n <= FD_STATUS; n++) fd(n)?.destroy();
    },
  };
}

/**
 * Why the sandbox itself failed, if it did. bwrap reports `"exit-code"` on its status descriptor once
 * the program ran; without it (and without a kill of ours), a mount it could not make is ours to report,
 * not the program's result — except a program that does not exist, which the model should read.
 */
export function setupFailure(r: {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  status: string;
  stderr: string;
}): string | undefined {
  if (r.code === SETUP_FAILED && r.stderr.includes(`${WRAPPER_FAILED}: `))
    return `sandbox: could not start bwrap: ${r.stderr.trim()}`;
  if (r.timedOut || r.signal !== null || r.status.includes('"exit-code"') || /^bwrap: execvp /.test(r.stderr))
    return undefined;
  return `sandbox: bwrap could not set up the sandbox: ${r.stderr.trim() || `exit ${r.code}`}`;
}
