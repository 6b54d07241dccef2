import type { Readable, Writable } from "node:stream";
import type { ReadOnlyBind } from "./binds.js";
import type { NetDecision, NetworkPolicy } from "./net/index.js";

/** The fd on which a program with a channel writes to the harness. */
export const CHANNEL_FD_TO_HOST = 3;
/** The fd on which a program with a channel reads what the harness sends. */
export const CHANNEL_FD_FROM_HOST = 4;

/**
 * A private pipe pair between the harness and the program, beside stdin/stdout/stderr, so what the
 * program prints stays separate from what it asks the harness (code actions' tool calls). Inside the
 * program it is fds 3 and 4 (above); a backend must keep both open across every wrapper it runs
 * (prlimit, bwrap, setpriv …) and put any fds of its own above them.
 */
export interface ExecChannel {
  /**
   * Called once, right after the process has started. `fromProgram` yields what the program writes
   * to fd 3; what is written to `toProgram` arrives on its fd 4. The backend destroys both streams when
   * the process has exited; writes after that fail silently.
   */
  open(pipes: { fromProgram: Readable; toProgram: Writable }): void;
}

/** What a sandbox runs: an argv, never a string for a host shell to interpret. */
export interface ExecRequest {
  /** argv[0] is looked up on the sandbox's PATH; use ["bash", "-lc", script] for shell syntax. */
  argv: string[];
  /** Working directory relative to the workspace root (default: the root). */
  cwd?: string;
  /** Wall-clock limit; the whole process group is killed when it passes. */
  timeoutMs: number;
  /** Extra variables on top of the sandbox's allowlisted environment. */
  env?: Record<string, string>;
  stdin?: string;
  /** Characters of combined output kept (head and tail); the rest is cut with a note. */
  outputLimit?: number;
  /** An extra duplex channel on fds 3 and 4 (code actions); absent = the program gets only 0–2. */
  channel?: ExecChannel;
}

export interface ExecResult {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  /** stdout and stderr interleaved in arrival order, capped. */
  output: string;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Characters removed from `output` by the cap (0 when nothing was cut). */
  truncatedChars: number;
  durationMs: number;
  /** Degradations and limits that fired, for a person to see (e.g. "no cgroup: memory is not limited"). */
  warnings?: string[];
}

/** The resource limits every sandboxed process gets. */
export interface ResourceLimits {
  cpuSeconds: number;
  addressSpaceBytes: number;
  fileSizeBytes: number;
  openFiles: number;
  processes: number;
}

/**
 * A place where model-caused commands run. Backends: `bwrap` (namespaces, seccomp, a cgroup, the
 * workspace as the only writable mount; what the default choice "auto" opens where it works),
 * `runsc` (gVisor: a user-space kernel) and `process` (the inner layer only: empty environment,
 * rlimits, process-group timeout).
 */
export interface Sandbox {
  readonly backend: string;
  /** Absolute host path of the writable workspace. */
  readonly workspace: string;
  exec(request: ExecRequest): Promise<ExecResult>;
  close(): Promise<void>;
  /**
   * What the network allowlist's proxy allowed and refused so far, oldest first. Empty where commands
   * have no network to ask for (the default "none", and the process and runsc backends).
   */
  networkLog(): readonly NetDecision[];
}

/**
 * What every backend is opened with (openSandbox). Each backend honours what it can and refuses what
 * it cannot keep (a network allowlist without bwrap, a moved folder without a mount namespace) rather
 * than dropping it silently.
 */
export interface SandboxOptions {
  /** Host directory mounted read-write at /workspace: the only writable host path. */
  workspace: string;
  limits?: Partial<ResourceLimits>;
  /** Extra allowlisted variables (never secrets). */
  env?: Record<string, string>;
  /** Host paths visible read-only (acilab's node_modules for tsx), or parts of the workspace kept read-only. */
  readOnlyBinds?: readonly ReadOnlyBind[];
  /**
   * Host directories writable inside at `dest`, besides the workspace: only an environment layer while
   * it is built (src/envlayers), which must be its own empty folder. Handed to the sandbox user like the
   * workspace. Never give a sandbox a folder the host later runs code from.
   */
  writableBinds?: ReadonlyArray<{ source: string; dest: string }>;
  /** cgroup memory limit (default DEFAULT_MEMORY_BYTES). */
  memoryBytes?: number;
  /** cgroup pids limit (default limits.processes). */
  pids?: number;
  /** cgroup CPU limit in CPUs (default DEFAULT_CPUS; 0.5 = half a core), where a cpu controller exists. */
  cpus?: number;
  /**
   * "none" (default): the sandbox's own loopback only. `{ allow: ["pypi.org", "*.example.com",
   * "10.0.0.5:3142"] }`: those hosts too, through an HTTP proxy (HTTP_PROXY/HTTPS_PROXY are set);
   * everything else gets 403. See src/sandbox/net/.
   */
  network?: NetworkPolicy;
  /** Host uid/gid to run as when acilab runs as root (default SANDBOX_UID/GID). */
  uid?: number;
  gid?: number;
  /**
   * Hand the workspace to the sandbox uid (lchown of every entry with another owner) when acilab runs
   * as root. Default true; false when it already is — a snapshot prepared once with adoptTree — since
   * the check alone costs an lstat per file.
   */
  adoptWorkspace?: boolean;
  /**
   * The workspace is a user's directory that must stay theirs (`acilab sandbox exec --workspace`). As
   * root, the program then sees it through an idmapped mount that maps the directory's owner to the
   * sandbox uid (idmap.ts) instead of the directory being handed over: readable and writable inside
   * whatever its mode, new files owned by its owner, files of other owners out of reach. Throws where
   * the machine cannot do that. adoptWorkspace is ignored. Default false.
   */
  mapWorkspaceOwner?: boolean;
}
