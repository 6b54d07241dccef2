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
   * EOF"): the program never ran, and a second start usually works. Seen once in CI on a loaded
   * machine; a bad mount or an unknown platform, by contrast, fails the same way every time and says so.
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
 * What gVisor's boot process logged last as a warning or error (`W…`/`E…` lines of glog), from the
 * `--debug-log DIR/` files of a failed start: the cause a dead boot does not print on stderr.
 */
export function bootLogCause(logDir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(logDir)
      .filter((n) => n.includes(".boot."))
      .sort();
  } catch {
    return undefined;
  }
  for (const name of names.reverse()) {
    const text = readFileSync(posix.join(logDir, name), "utf8");
    const said = text
      .split("\n")
      .filter((l) => /^[WEF]\d{4} /.test(l))
      .map((l) => l.replace(/^\S+ \S+\s+\d+ \S+\] /, ""))
      .filter((l) => !/RLIMIT_MEMLOCK/.test(l));
    if (said.length > 0) return said.at(-1);
  }
  return undefined;
}
