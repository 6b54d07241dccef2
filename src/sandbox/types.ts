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
 * A place where model-caused commands run. Backends: `process` (inner layer only: empty environment,
 * rlimits, process-group timeout) now; namespaces/overlay backends plug in behind the same interface.
 */
export interface Sandbox {
  readonly backend: string;
  /** Absolute host path of the writable workspace. */
  readonly workspace: string;
  exec(request: ExecRequest): Promise<ExecResult>;
  close(): Promise<void>;
}
