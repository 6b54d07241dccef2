import type { Readable, Writable } from "node:stream";

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
 * A place where model-caused commands run. Backends: `bwrap` (the default: namespaces, seccomp, a
 * cgroup, the workspace as the only writable mount), `runsc` (gVisor: a user-space kernel) and
 * `process` (the inner layer only: empty environment, rlimits, process-group timeout).
 */
export interface Sandbox {
  readonly backend: string;
  /** Absolute host path of the writable workspace. */
  readonly workspace: string;
  exec(request: ExecRequest): Promise<ExecResult>;
  close(): Promise<void>;
}
