/**
 * One hook command run on the host: `sh -c COMMAND` in the repository, the event's JSON on stdin,
 * in a process group of its own so that a timeout — or the hook simply finishing — takes down every
 * process it started (`sleep 30 &` included). Hooks are the user's own code, as in Claude Code; what
 * keeps them from lingering is the group, not trust in what they do. A process that leaves the group
 * on purpose (setsid) is beyond reach, as it would be for any shell.
 */
import { spawn } from "node:child_process";

/** A hook's verdict is a line of JSON or a short message; a megabyte per stream keeps a chatty one from filling memory. */
export const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;

/**
 * After the hook's shell exits (or is killed), how long to wait for its output pipes to close: they
 * stay open only if a process that escaped the group holds them, and then the hook is over anyway.
 */
export const CLOSE_GRACE_MS = 2000;

export interface HookProcessResult {
  /** Exit code; null when killed by a signal or never started. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the shell could not be started at all (a missing cwd, no `sh`). */
  spawnError?: string;
}

export interface HookProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  timeoutMs: number;
}

function collector() {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk: Buffer) {
      if (size >= MAX_HOOK_OUTPUT_BYTES) return;
      const room = MAX_HOOK_OUTPUT_BYTES - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}

export function runHookProcess(command: string, options: HookProcessOptions): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const stdout = collector();
    const stderr = collector();
    let timedOut = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    const child = spawn("sh", ["-c", command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: nothing of the group is left.
      }
    };
    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      resolve({
        ...exit,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        ...(spawnError !== undefined ? { spawnError } : {}),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    let grace: NodeJS.Timeout | undefined;
    child.stdout.on("data", stdout.add);
    child.stderr.on("data", stderr.add);
    // A hook that never reads its stdin closes the pipe early; that is its business, not an error.
    child.stdin.on("error", () => {});
    child.on("error", (error) => finish(error.message));
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // The hook is done: whatever it left running in its group goes with it.
      killGroup();
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, CLOSE_GRACE_MS);
    });
    child.on("close", () => finish());
    child.stdin.end(options.stdin);
  });
}
