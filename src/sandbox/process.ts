import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { resolveInside } from "../workspace/index.js";
import { drain, killGroup, OutputCapture, watchExit } from "./child.js";
import type { NetDecision } from "./net/index.js";
import type { ExecRequest, ExecResult, ResourceLimits, Sandbox } from "./types.js";

/** Default output cap: mini-SWE-agent keeps 10k characters, production harnesses 30–48k; 30k is mid-range. */
export const DEFAULT_OUTPUT_LIMIT = 30_000;

export const DEFAULT_LIMITS: ResourceLimits = {
  cpuSeconds: 600,
  // Address space, not memory: V8 reserves ~10 GiB of virtual space per WebAssembly memory (tsx's
  // lexer is Wasm), so measured here anything under 32 GiB breaks `node --import tsx`. Real memory
  // is bounded by the cgroup of the namespace backend; this only stops runaway reservations.
  addressSpaceBytes: 64 * 1024 ** 3,
  fileSizeBytes: 256 * 1024 ** 2,
  openFiles: 1024,
  processes: 512,
};

/**
 * The variables a sandboxed process may see. Everything else in the host environment — API keys,
 * tokens, proxies, NODE_OPTIONS — is dropped, because model-written code runs here.
 */
/** PATH inside every sandbox (an environment layer puts /env/bin before it). */
export const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export function sandboxEnvironment(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: SANDBOX_PATH,
    HOME: home,
    TMPDIR: home,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TERM: "dumb",
    PAGER: "cat",
    GIT_PAGER: "cat",
    PYTHONDONTWRITEBYTECODE: "1",
    PYTHONUNBUFFERED: "1",
    NO_COLOR: "1",
    ...extra,
  };
}

function prlimitArgs(limits: ResourceLimits): string[] {
  return [
    `--cpu=${limits.cpuSeconds}`,
    `--as=${limits.addressSpaceBytes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
    `--nproc=${limits.processes}`,
    "--",
  ];
}

export interface ProcessSandboxOptions {
  workspace: string;
  limits?: Partial<ResourceLimits>;
  /** Extra allowlisted variables (never secrets). */
  env?: Record<string, string>;
}

/**
 * The inner sandbox layer only: an empty environment plus an allowlist, the workspace as cwd, rlimits
 * through prlimit(1), a private HOME/TMPDIR, a wall-clock timeout that kills the whole process group,
 * and capped output. It is NOT an OS boundary: the process can still read the host's files and reach
 * the network. The namespace backend wraps the same contract.
 */
export class ProcessSandbox implements Sandbox {
  readonly backend = "process";
  readonly workspace: string;
  private readonly home: string;
  private readonly limits: ResourceLimits;
  private readonly env: Record<string, string>;
  private readonly live = new Set<number>();

  constructor(options: ProcessSandboxOptions) {
    this.workspace = realpathSync(options.workspace);
    this.home = mkdtempSync(join(tmpdir(), "acilab-home-"));
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.env = options.env ?? {};
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const cwd = request.cwd
      ? resolveInside(this.workspace, request.cwd)
      : { ok: true as const, abs: this.workspace };
    if (!cwd.ok) throw new Error(`sandbox: working directory refused: ${cwd.error}`);
    if (request.argv.length === 0) throw new Error("sandbox: empty argv; give the program to run");
    const capture = new OutputCapture(request.outputLimit ?? DEFAULT_OUTPUT_LIMIT);

    const child = spawn("prlimit", [...prlimitArgs(this.limits), ...request.argv], {
      cwd: cwd.abs,
      env: sandboxEnvironment(this.home, { ...this.env, ...request.env }),
      detached: true, // its own process group, so a timeout can kill every descendant
      // fds 3 and 4 (CHANNEL_FD_TO_HOST / _FROM_HOST) only when asked: other programs never see them.
      stdio: request.channel ? ["pipe", "pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
    });
    const pgid = child.pid;
    if (pgid !== undefined) this.live.add(pgid);
    capture.attach(child, request.stdin);
    const channel = request.channel ? openChannel(request.channel, child.stdio) : [];

    const { code, signal, timedOut, spawnError } = await watchExit(child, request.timeoutMs, () =>
      killGroup(pgid),
    );
    if (spawnError) {
      for (const s of channel) s.destroy();
      if (pgid !== undefined) this.live.delete(pgid);
      throw new Error(`sandbox: could not start ${request.argv[0]}: ${spawnError.message}`);
    }
    // Background children (`sleep 1000 &`) keep the pipes open and outlive the command: end them.
    killGroup(pgid);
    await drain(child.stdout, child.stderr);
    for (const s of channel) s.destroy();
    if (pgid !== undefined) this.live.delete(pgid);

    return capture.result({ exitCode: code, signal, timedOut });
  }

  /** The process backend has the host's network and no proxy: nothing is asked, nothing logged. */
  networkLog(): readonly NetDecision[] {
    return [];
  }

  async close(): Promise<void> {
    for (const pgid of this.live) killGroup(pgid);
    this.live.clear();
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** Hand the program's fds 3 and 4 to the channel; returns the streams to destroy after exit. */
function openChannel(
  channel: NonNullable<ExecRequest["channel"]>,
  stdio: readonly unknown[],
): Array<Readable | Writable> {
  const fromProgram = stdio[3] as Readable | null | undefined;
  const toProgram = stdio[4] as Writable | null | undefined;
  if (!fromProgram || !toProgram) return [];
  // A program that exits (or closes its end) mid-reply makes our writes fail: that is not our error.
  fromProgram.on("error", () => {});
  toProgram.on("error", () => {});
  channel.open({ fromProgram, toProgram });
  return [fromProgram, toProgram];
}
