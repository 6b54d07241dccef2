import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { needing } from "../../testing/needs.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { openSandbox } from "../open.js";
import { runscBuild } from "./build.js";

const build = runscBuild();
if ("error" in build) console.warn(`skipping openSandbox("runsc") tests: ${build.error}`);

needing("runsc", "error" in build && build.error).describe('openSandbox({backend: "runsc"})', () => {
  const ws = mkdtempSync(join(tmpdir(), "acilab-runsc-open-"));
  afterAll(() => rmSync(ws, { recursive: true, force: true }));

  it("gives a gVisor sandbox, with no fallback warning", async () => {
    const { sandbox, warning } = await openSandbox({ workspace: ws, backend: "runsc" });
    try {
      expect(sandbox.backend).toBe("runsc");
      expect(warning).toBeUndefined();
      const r = await sandbox.exec({ argv: ["cat", "/proc/version"], timeoutMs: HANG_GUARD_MS });
      // gVisor's own kernel answers, not the host's.
      expect(r.stdout).not.toBe(readFileSync("/proc/version", "utf8"));
      expect(r.exitCode).toBe(0);
    } finally {
      await sandbox.close();
    }
  });

  it("refuses a network allowlist instead of dropping it", async () => {
    await expect(
      openSandbox({ workspace: ws, backend: "runsc", network: { allow: ["example.com"] } }),
    ).rejects.toThrow(/runsc backend has no network.*bwrap backend/);
  });
});
