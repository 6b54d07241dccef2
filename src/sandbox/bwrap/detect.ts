import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { bwrapBinary } from "./binary.js";
import { BwrapSandbox } from "./sandbox.js";

const run = promisify(execFile);

export interface Probe {
  ok: boolean;
  /** One line: what works, or what failed and how to fix it. */
  reason: string;
}

/** How long a probe may take before we call the backend unusable (a hung runtime says no too). */
export const PROBE_TIMEOUT_MS = 15_000;

let bwrapProbe: Promise<Probe & { warnings: string[] }> | undefined;

/**
 * Can the bwrap backend run here — not just "is bwrap installed", but a whole sandbox: namespaces,
 * the uid switch, seccomp, the cgroup, an exec of /bin/true. Run once per process.
 */
export function probeBwrap(): Promise<Probe & { warnings: string[] }> {
  bwrapProbe ??= (async () => {
    let version: string;
    try {
      version = (await run(bwrapBinary(), ["--version"], { timeout: PROBE_TIMEOUT_MS })).stdout.trim();
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      return {
        ok: false,
        warnings: [],
        reason: missing
          ? "bwrap is not installed — apt-get install bubblewrap"
          : `bwrap --version failed: ${(err as Error).message}`,
      };
    }
    if (process.platform !== "linux")
      return { ok: false, warnings: [], reason: `${version} needs Linux namespaces` };
    const ws = mkdtempSync(join(tmpdir(), "acilab-probe-"));
    let sandbox: BwrapSandbox | undefined;
    try {
      sandbox = new BwrapSandbox({ workspace: ws });
      const started = performance.now();
      const r = await sandbox.exec({ argv: ["/bin/sh", "-c", "exit 7"], timeoutMs: PROBE_TIMEOUT_MS });
      const ms = performance.now() - started;
      if (r.exitCode !== 7)
        return {
          ok: false,
          warnings: r.warnings,
          reason: `${version} cannot start a sandbox: ${firstLine(r.output) || `exit ${r.exitCode ?? r.signal}`}${hint(r.output)}`,
        };
      const who = sandbox.identity.switched ? `as uid ${sandbox.identity.uid}` : "as the current user";
      const degraded = r.warnings.length > 0 ? ` — degraded: ${r.warnings.join("; ")}` : "";
      return {
        ok: true,
        warnings: r.warnings,
        reason: `${version}: user/pid/net/ipc/uts namespaces, seccomp, ${who}, ${ms.toFixed(0)} ms for one exec${degraded}`,
      };
    } catch (err) {
      return {
        ok: false,
        warnings: [],
        reason: `${version} cannot start a sandbox: ${(err as Error).message}`,
      };
    } finally {
      await sandbox?.close();
      rmSync(ws, { recursive: true, force: true });
    }
  })();
  return bwrapProbe;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

/** The usual causes of "bwrap cannot create namespaces", with their fixes. */
function hint(output: string): string {
  if (/No permission to unshare|Operation not permitted|setting up uid map/i.test(output))
    return " (unprivileged user namespaces are off: sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces>0, or on Ubuntu an AppArmor profile for bwrap)";
  return "";
}
