import { readdirSync, readFileSync } from "node:fs";

/** Every other process's command line (its arguments, NUL-separated), read from /proc. */
function commandLines(): Array<{ pid: number; argv: string[] }> {
  const found: Array<{ pid: number; argv: string[] }> = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      found.push({ pid: Number(name), argv: readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0") });
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/**
 * Host processes (pids) whose command line contains `text` anywhere. A zombie's command line is
 * empty, so dead-but-unreaped processes never count.
 */
export function processesWith(text: string): number[] {
  return commandLines()
    .filter((p) => p.argv.join(" ").includes(text))
    .map((p) => p.pid);
}

/**
 * Host processes (pids) whose argv[0] starts with `tag`. Tests tag the processes they expect to be
 * killed (`exec -a <tag> sleep 600`) and look for them afterwards; a wrapper whose arguments merely
 * mention the tag (bwrap … bash -c "exec -a <tag> …") is not one of them.
 */
export function processesTagged(tag: string): number[] {
  return commandLines()
    .filter((p) => p.argv[0]?.startsWith(tag))
    .map((p) => p.pid);
}

/**
 * Bash: `running NAME` succeeds when a process runs with argv[0] NAME. Builtins only: no fork. A
 * process that exits between the glob and the read makes the `<` fail, and bash reports a failed
 * redirection on the shell's stderr — so the group's stderr, not the read's, goes to /dev/null.
 */
const RUNNING = `running() { local f a; for f in /proc/[0-9]*/cmdline; do { read -r -d '' a < "$f"; } 2>/dev/null && [ "$a" = "$1" ] && return 0; done; return 1; }; `;

/**
 * A bash fragment that goes on only once a process named `marker` (its argv[0], from `exec -a`) runs,
 * however the script started it (setsid, a double fork) — so a test never looks for a process that had
 * not started yet, however slow the machine.
 */
export function untilRunning(...markers: string[]): string {
  return RUNNING + markers.map((m) => `until running ${m}; do :; done; `).join("");
}

/** A bash fragment that starts `command` in the background as `marker`, and waits until it runs. */
export function startTagged(marker: string, command: string): string {
  return `(exec -a ${marker} ${command}) & ${untilRunning(marker)}`;
}

/** SIGKILL every process tagged `tag`: what a failed test left running. */
export function killTagged(tag: string): void {
  for (const pid of processesTagged(tag)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // exited since we looked
    }
  }
}
