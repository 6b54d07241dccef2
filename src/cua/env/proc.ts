/** Child processes the X11 desktop owns: each in its own process group, so close() leaves nothing behind. */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { rmSync } from "node:fs";

/** How long a process gets after SIGTERM before SIGKILL: Chromium flushes its profile in well under this. */
const TERM_GRACE_MS = 2000;

export interface Owned {
  name: string;
  child: ChildProcess;
  /** Last stderr lines, for error messages that say why a process died. */
  stderr: () => string;
}

/**
 * Groups still running. Detached groups outlive their parent, so if the harness exits without close()
 * (an uncaught error, process.exit) the 'exit' hook kills them rather than leave an Xvfb behind.
 */
const liveGroups = new Set<number>();
/** Temporary dirs (profiles, frame buffers) in use: removed by the same exit hook. */
const liveDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
    // Processes just SIGKILLed may still be exiting and writing: retry, and never throw from the hook.
    for (const dir of liveDirs) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      } catch {}
    }
  });
}

/** Register a temporary dir for removal at harness exit; returns it. */
export function removeOnExit(dir: string): string {
  liveDirs.add(dir);
  installExitHook();
  return dir;
}

/** Remove a registered temporary dir now. */
export function removeNow(dir: string): void {
  liveDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Remember a detached process group so a harness exit kills it. */
export function trackGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  const pid = child.pid;
  liveGroups.add(pid);
  child.once("exit", () => liveGroups.delete(pid));
  installExitHook();
}

export function spawnOwned(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv): Owned {
  const child = spawn(cmd, args, { env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  trackGroup(child);
  let tail = "";
  child.stderr?.on("data", (d: Buffer) => {
    tail = (tail + d.toString()).slice(-2000);
  });
  child.on("error", (err) => {
    tail += `\n${err.message}`;
  });
  return { name, child, stderr: () => tail.trim() };
}

/** SIGTERM the whole group, SIGKILL it after a grace period, and wait for the leader to exit. */
export async function stopOwned(owned: Owned): Promise<void> {
  const { child } = owned;
  const pid = child.pid;
  if (pid === undefined) return;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  signalGroup(pid, "SIGTERM");
  const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), TERM_GRACE_MS);
  await exited;
  clearTimeout(timer);
  // Children that outlived the leader (renderers) still belong to the group.
  signalGroup(pid, "SIGKILL");
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Run a short command to completion; reject with its stderr on failure. */
export function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 10_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(" ")}: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}
