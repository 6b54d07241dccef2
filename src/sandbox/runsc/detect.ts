import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROBE_TIMEOUT_MS } from "../bwrap/detect.js";
import { runscBuild } from "./build.js";
import { RunscSandbox } from "./sandbox.js";

export interface RunscProbe {
  ok: boolean;
  /** One line: what works (platform, latency, caveats), or what failed and the fix. */
  reason: string;
  platform?: string;
  /** create + exec + close of one sandbox running `sh -c 'exit 7'`. */
  startMs?: number;
}

/** Exit status of the probe script: 7 = ran, 8 = ran but `ls -l` is broken (see below). */
const PROBE_SCRIPT = "ls -ld / >/dev/null 2>&1 || exit 8; exit 7";

let probe: Promise<RunscProbe> | undefined;

/**
 * Can the runsc backend run here: a whole RunscSandbox (OCI bundle, read-only root, no network) that
 * runs a program whose exit status proves it ran. Once per process.
 */
export function probeRunsc(): Promise<RunscProbe> {
  probe ??= (async () => {
    const b = runscBuild();
    if ("error" in b) return { ok: false, reason: b.error };
    if (process.platform !== "linux") return { ok: false, reason: `${b.version} needs Linux` };
    const ws = mkdtempSync(join(tmpdir(), "acilab-runsc-probe-"));
    let sandbox: RunscSandbox | undefined;
    try {
      const started = performance.now();
      sandbox = new RunscSandbox({ workspace: ws });
      const r = await sandbox.exec({ argv: ["/bin/sh", "-c", PROBE_SCRIPT], timeoutMs: PROBE_TIMEOUT_MS });
      await sandbox.close();
      const ms = performance.now() - started;
      if (r.exitCode !== 7 && r.exitCode !== 8)
        return {
          ok: false,
          reason: `${b.version} cannot start a sandbox: ${r.output.trim().split("\n").pop() || `exit ${r.exitCode ?? r.signal}`}`,
        };
      const who = sandbox.identity.switched
        ? `as uid ${sandbox.identity.uid}`
        : "rootless, as the current user";
      const systrap = b.platforms.includes("systrap") ? "" : " (this build has no systrap)";
      // Measured with runsc 20221219 on Debian 12: it rejects statx(AT_NO_AUTOMOUNT), which coreutils 9 uses.
      const caveat =
        r.exitCode === 8
          ? " — caveat: `ls -l` and `stat` fail with EINVAL here (this gVisor build rejects coreutils' statx flags; a newer runsc fixes it)"
          : "";
      return {
        ok: true,
        platform: b.platform,
        startMs: ms,
        reason: `${b.version}: platform ${b.platform}${systrap}, read-only root, no network, ${who}, ${ms.toFixed(0)} ms per sandbox start${caveat}`,
      };
    } catch (err) {
      return {
        ok: false,
        reason: `${b.version} cannot start a sandbox: ${(err as Error).message.split("\n")[0]}`,
      };
    } finally {
      await sandbox?.close();
      rmSync(ws, { recursive: true, force: true });
    }
  })();
  return probe;
}
