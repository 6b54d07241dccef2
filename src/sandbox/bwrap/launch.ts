import { type ChildProcess, spawn } from "node:child_process";
import type { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { ResourceLimits } from "../types.js";
import { devNullFd, inheritableDescriptors } from "./fds.js";
import type { HostIdentity } from "./owner.js";
import { phase } from "./phases.js";
import { type Spawner, sharedSpawner } from "./spawner.js";

/** Descriptors as the wrapper and bwrap see them: 0–2 stdio, 3–4 the exec channel, ours above. */
export const FD_GATE = 5; // no longer used (the wrapper joins the cgroup itself); kept covered and closed
export const FD_SECCOMP = 6;
export const FD_STATUS = 7;

/** Exit status and stderr prefix of the wrapper when it could not get to bwrap. */
const SETUP_FAILED = 125;
const WRAPPER_FAILED = "acilab sandbox wrapper";

/**
 * The wrapper bwrap starts from: it joins the sandbox's cgroup itself (so bwrap and all it forks are
 * born inside, with no round trip to the harness), sets the rlimits, and becomes bwrap — through
 * setpriv when acilab runs as root, since joining needs root and bwrap must not have it. A fixed
 * script; every value arrives as an argument, never spliced into shell text.
 */
const WRAPPER = `fail() { echo "${WRAPPER_FAILED}: $1" >&2; exit ${SETUP_FAILED}; }
exec ${FD_GATE}<&-
[ "$1" = channel ] || exec 3<&- 4<&-
ulimit -t "$2" && ulimit -f "$3" && ulimit -v "$4" && ulimit -n "$5" && ulimit -c 0 || fail "ulimit refused"
n=$6
shift 6
while [ "$n" -gt 0 ]; do
  { echo 0 >"$1"; } 2>/dev/null || fail "could not join the sandbox's cgroup through $1"
  shift
  n=$((n - 1))
done
exec "$@"`;

/** util-linux setpriv: drops root to the sandbox uid between the cgroup join and bwrap. */
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv"];
let setpriv: string | null | undefined;
function findSetpriv(): string {
  setpriv ??= SETPRIV.find((p) => existsSync(p)) ?? null;
  if (!setpriv)
    throw new Error(
      "sandbox: setpriv is not installed (util-linux); acilab runs as root and needs it to drop to the sandbox uid — apt-get install util-linux",
    );
  return setpriv;
}

/** setpriv's argv that drops root to the sandbox uid and runs what follows it. */
function dropTo(identity: HostIdentity): string[] {
  return [findSetpriv(), `--reuid=${identity.uid}`, `--regid=${identity.gid}`, "--clear-groups", "--"];
}

/** The started process: a ChildProcess, or its stand-in from the spawner. */
export type LaunchedChild = Pick<
  ChildProcess,
  "pid" | "exitCode" | "signalCode" | "stdin" | "stdout" | "stderr"
> &
  Pick<EventEmitter, "once">;

export interface Launched {
  child: LaunchedChild;
  /** The wrapper's process group (it becomes bwrap's): what a timeout kills. */
  pgid: number;
  /** The stream on one of the child's descriptors, when it is a pipe. */
  fd(n: number): (Readable & Writable) | undefined;
  /** Close our ends of the extra descriptors. */
  dispose(): void;
}

export interface LaunchOptions {
  command: string[];
  limits: ResourceLimits;
  channel: boolean;
  identity: HostIdentity;
  /** Files to write 0 into before the command starts: the cgroup's joinFiles. */
  join: string[];
  /** bwrap's seccomp filter, read from FD_SECCOMP. */
  seccomp: Buffer;
  /**
   * A program run as root after the cgroup join and before the drop to the sandbox uid, which then
   * execs the rest (setpriv … command): the idmapped workspace of a user's directory (idmap.ts).
   */
  asRoot?: string[];
}

/**
 * Start `command` (bwrap) in its own process group, joined to the cgroup, under the rlimits, as the
 * sandbox user, with stdio, the channel (fds 3/4 when asked), the seccomp filter and the status pipe.
 * Through the spawner when there is one (spawner-source.ts: this process never forks), else through
 * the sh wrapper.
 */
export async function launch(options: LaunchOptions): Promise<Launched> {
  const spawner = sharedSpawner();
  if (spawner) {
    try {
      return await throughSpawner(spawner, options);
    } catch (err) {
      if (spawner.alive) throw err;
    }
  }
  return throughShell(options);
}

async function throughSpawner(spawner: Spawner, options: LaunchOptions): Promise<Launched> {
  const l = options.limits;
  const { identity } = options;
  const pipes: Record<number, "r" | "w"> = { 0: "r", 1: "w", 2: "w", [FD_STATUS]: "w" };
  if (options.channel) Object.assign(pipes, { 3: "w", 4: "r" });
  // With a root step, the drop to the sandbox uid happens after it, through setpriv, as in the shell path.
  const rootStep = options.asRoot !== undefined && identity.switched;
  const child = await spawner.spawn({
    argv: rootStep ? [...(options.asRoot ?? []), ...dropTo(identity), ...options.command] : options.command,
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    join: options.join,
    // What the sh wrapper's ulimit sets: whole 512-byte blocks and KiB, soft = hard.
    rlimits: {
      cpu: l.cpuSeconds,
      fsize: Math.floor(l.fileSizeBytes / 512) * 512,
      as: Math.floor(l.addressSpaceBytes / 1024) * 1024,
      nofile: l.openFiles,
      core: 0,
    },
    uid: identity.switched && !rootStep ? identity.uid : null,
    gid: identity.switched && !rootStep ? identity.gid : null,
    pipes,
    seccomp: { fd: FD_SECCOMP, data: options.seccomp },
  });
  phase("wrapper started");
  const fd = (n: number) => child.streams.get(n);
  for (const s of child.streams.values()) s.on("error", () => {});
  return {
    child,
    pgid: child.pid,
    fd,
    dispose() {
      for (let n = 3; n <= FD_STATUS; n++) fd(n)?.destroy();
    },
  };
}

/**
 * The wrapper path: joins `join`, sets the rlimits and runs `command` as the sandbox user. Descriptors
 * acilab itself inherited (a CI runner's pipe…) would pass through sh and bwrap into the program, so
 * each is covered with /dev/null — sh can close only fds 0–9.
 */
async function throughShell(options: LaunchOptions): Promise<Launched> {
  const channel = options.channel ? "pipe" : "ignore";
  const stdio: Array<"pipe" | "ignore" | number> = ["pipe", "pipe", "pipe", channel, channel];
  stdio[FD_GATE] = devNullFd();
  stdio[FD_SECCOMP] = "pipe";
  stdio[FD_STATUS] = "pipe";
  for (const n of inheritableDescriptors(stdio.length)) {
    while (stdio.length < n) stdio.push("ignore");
    stdio[n] = devNullFd();
  }
  const l = options.limits;
  const { identity } = options;
  const wrapperArgs = [
    options.channel ? "channel" : "none",
    String(l.cpuSeconds),
    String(Math.floor(l.fileSizeBytes / 512)), // ulimit -f counts 512-byte blocks
    String(Math.floor(l.addressSpaceBytes / 1024)), // ulimit -v counts KiB
    String(l.openFiles),
    String(options.join.length),
    ...options.join,
    ...(identity.switched ? [...(options.asRoot ?? []), ...dropTo(identity)] : []),
  ];
  const child = spawn("/bin/sh", ["-c", WRAPPER, "sh", ...wrapperArgs, ...options.command], {
    cwd: "/",
    // bwrap's own environment is visible in the sandbox as /proc/1/environ: give it nothing.
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    detached: true, // its own process group, so a timeout reaches bwrap and the wrapper together
    stdio,
  });
  const fd = (n: number) => (child.stdio[n] as (Readable & Writable) | null | undefined) ?? undefined;
  for (let n = 3; n <= FD_STATUS; n++) fd(n)?.on("error", () => {});
  // bwrap reads it to EOF when it gets there; the pipe holds it meanwhile (a filter is a few KiB).
  fd(FD_SECCOMP)?.end(options.seccomp);
  const spawnError = await new Promise<Error | undefined>((r) => {
    child.once("spawn", () => r(undefined));
    child.once("error", (err) => r(err));
  });
  if (spawnError || child.pid === undefined)
    throw new Error(`sandbox: could not start bwrap: ${spawnError?.message ?? "no pid"}`);
  phase("wrapper started");
  return {
    child,
    pgid: child.pid,
    fd,
    dispose() {
      for (let n = 3; n <= FD_STATUS; n++) fd(n)?.destroy();
    },
  };
}

/**
 * Why the sandbox itself failed, if it did. bwrap reports `"exit-code"` on its status descriptor once
 * the program ran; without it (and without a kill of ours), a mount it could not make is ours to report,
 * not the program's result — except a program that does not exist, which the model should read.
 *
 * bwrap can leave the exit report out even though the program ran (it writes it only when it reads
 * exactly the one byte its child sent before exec, without waiting; seen once in a worker starting under
 * load: `sh -c "exit 7"` came back as exit 7 with no report). So a run whose child was cloned
 * (`"child-pid"` reported) and that ended without bwrap's own "bwrap: …" complaint is the program's.
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
  const complained = /^bwrap: /m.test(r.stderr);
  if (r.status.includes('"child-pid"') && !complained) return undefined;
  return `sandbox: bwrap could not set up the sandbox: ${r.stderr.trim() || `exit ${r.code}`}`;
}
