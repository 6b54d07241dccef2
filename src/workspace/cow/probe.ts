import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_WORKSPACE_BYTES, WORKSPACE_BYTES_ENV, workspaceBytesFromEnv } from "./capacity.js";
import { prepareSnapshot } from "./snapshot.js";

/** What `acilab doctor` says of the workspace size cap: the checkout a run would get here, made and read. */
export interface WorkspaceCapCheck {
  ok: boolean;
  reason: string;
}

/**
 * Make a tiny snapshot and one checkout of it, as a run does, and report where its writes would go:
 * an ext4 image or a tmpfs of the cap (enforced), or a copy on the host's disk (not enforced).
 */
export async function probeWorkspaceCap(): Promise<WorkspaceCapCheck> {
  const source = mkdtempSync(join(tmpdir(), "acilab-doctor-ws-"));
  let cap: number;
  try {
    cap = workspaceBytesFromEnv() ?? DEFAULT_WORKSPACE_BYTES;
  } catch (err) {
    rmSync(source, { recursive: true, force: true });
    return { ok: false, reason: (err as Error).message };
  }
  const gib = `${Math.round((cap / 1024 ** 3) * 100) / 100} GiB`;
  const set = process.env[WORKSPACE_BYTES_ENV]
    ? `${WORKSPACE_BYTES_ENV}`
    : `default; ${WORKSPACE_BYTES_ENV} sets it`;
  try {
    writeFileSync(join(source, "probe.txt"), "probe\n");
    const snapshot = await prepareSnapshot(source);
    try {
      const checkout = await snapshot.checkout();
      if (checkout.capBytes === undefined)
        return {
          ok: false,
          reason: `checkouts here are copies on the host's disk, with no cap (${checkout.warning ?? "overlayfs unavailable"})`,
        };
      return {
        ok: true,
        reason: `${gib} per checkout (${set}), on ${checkout.storage === "tmpfs" ? "a tmpfs (in memory)" : "an ext4 image (on disk)"}`,
      };
    } finally {
      await snapshot.dispose();
    }
  } catch (err) {
    return { ok: false, reason: `could not make a checkout to check: ${(err as Error).message}` };
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}
