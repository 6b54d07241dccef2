import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";

/** `runsc run` exits 128 when it could not create or start the container (its own error on stderr). */
const RUNSC_SETUP_FAILED = 128;

/** Why runsc itself failed, as opposed to the program it ran. */
export interface SetupFailure {
  /** One line for the user, ending with what to do. */
  message: string;
  /**
   * gVisor's sandbox process died while booting and said nothing ("waiting for sandbox to start:
   * EOF"): the program never ran, so a second start is safe, and it keeps runsc's logs, which name the
   * cause (in CI: the gofer could not bind a source that had been removed). An unknown platform, by
   * contrast, is said on stderr the first time.
   */
  bootDied: boolean;
}

const BOOT_DIED = /waiting for sandbox to start: EOF|cannot read client sync file/;

/**
 * runsc's own failure: it exits 128 and says "creating container: …" / "running container: …" last on
 * stderr, or logs "FATAL ERROR: …" (an unknown flag value). A missing program is the wrapper shell's
 * ordinary exit 127, which the model should read.
 */
export function setupFailure(
  code: number | null,
  timedOut: boolean,
  stderr: string,
): SetupFailure | undefined {
  if (timedOut || code !== RUNSC_SETUP_FAILED) return undefined;
  const lines = stderr.trim().split("\n");
  const last = lines.at(-1) ?? "";
  const fatal = lines.map((l) => /\bFATAL ERROR: (.*)/.exec(l)?.[1]).find((m) => m !== undefined);
  if (!/^(creating|running|starting) container: |^runsc: /.test(last) && fatal === undefined)
    return undefined;
  const said = fatal ?? last;
  return {
    message: `sandbox: runsc could not set up the sandbox: ${said} — run "acilab doctor" to see whether the runsc backend works here`,
    bootDied: BOOT_DIED.test(said),
  };
}

/**
 * Why a start failed, from the `--debug-log DIR/` files runsc wrote: the gofer's fatal error if it
 * died — it resolves the bind mounts, and when one fails (a source gone) the sandbox only sees the
 * mount list's pipe close and logs "Error reading mounts file" — else the boot's last warning or error.
 */
export function startLogCause(logDir: string): string | undefined {
  const gofer = logLines(logDir, "gofer")
    .map((l) => /FATAL ERROR: (.*)/.exec(l)?.[1])
    .filter((m) => m !== undefined);
  if (gofer.length > 0) return `the gofer: ${gofer.at(-1)}`;
  const boot = logLines(logDir, "boot");
  return boot.length > 0 ? `the sandbox: ${boot.at(-1)}` : undefined;
}

/** Warning and error lines (glog `W`/`E`/`F`) of one runsc process's logs, prefix stripped, oldest first. */
function logLines(logDir: string, command: "gofer" | "boot"): string[] {
  let names: string[];
  try {
    names = readdirSync(logDir)
      .filter((n) => n.includes(`.${command}.`))
      .sort();
  } catch {
    return [];
  }
  return names.flatMap((name) =>
    readFileSync(posix.join(logDir, name), "utf8")
      .split("\n")
      .filter((l) => /^[WEF]\d{4} /.test(l))
      .map((l) => l.replace(/^\S+ \S+\s+\d+ \S+\] /, ""))
      .filter((l) => !/RLIMIT_MEMLOCK|Not setting product_name/.test(l)),
  );
}
