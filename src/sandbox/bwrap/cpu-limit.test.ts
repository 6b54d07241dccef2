/**
 * The per-sandbox CPU limit on this host: a busy loop over its quota is throttled by the kernel, as
 * the cgroup's own counters show (never a wall-clock bound: the machine is shared and busy).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { needingAll, notRoot, unless } from "../../testing/needs.js";
import { EVENTUALLY, HANG_GUARD_MS } from "../../testing/time.js";
import { probeCgroupHost } from "./cgroup-layout.js";
import { probeBwrap } from "./detect.js";
import { BwrapSandbox, DEFAULT_CPUS } from "./sandbox.js";

const probe = await probeBwrap();
const host = probeCgroupHost();
const cpuController = host.v1.cpu !== undefined || (host.v2?.controllers.includes("cpu") ?? false);
/** About 50 ms of one core's work in Python: five times a 0.1-CPU quota of 10 ms per 100 ms period. */
const BUSY = ["python3", "-c", "i = 0\nwhile i < 1_500_000:\n    i += 1"];

needingAll([
  ["bwrap", unless(probe)],
  ["root", notRoot],
  ["cgroup", !cpuController && "no cpu controller in this cgroup hierarchy"],
]).describe("CPU limit per sandbox", () => {
  let ws: string;
  beforeAll(() => {
    ws = mkdtempSync(join(tmpdir(), "acilab-cpu-"));
  });
  afterAll(() => rmSync(ws, { recursive: true, force: true }));

  it("throttles a busy loop that is over its quota", async () => {
    const sandbox = new BwrapSandbox({ workspace: ws, cpus: 0.1 });
    try {
      expect(sandbox.cgroupLimits().cpu).toMatch(/cpu/);
      expect(sandbox.cpuStat()?.throttled).toBe(0);
      const r = await sandbox.exec({ argv: BUSY, timeoutMs: HANG_GUARD_MS });
      expect(r.exitCode).toBe(0);
      const stat = sandbox.cpuStat()!;
      expect(stat.throttled).toBeGreaterThan(0);
      expect(stat.throttledUs).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });

  it("by default gives DEFAULT_CPUS: one busy thread, using one core at most, is never throttled", async () => {
    expect(DEFAULT_CPUS).toBeGreaterThanOrEqual(1);
    const sandbox = new BwrapSandbox({ workspace: ws });
    try {
      const r = await sandbox.exec({ argv: BUSY, timeoutMs: HANG_GUARD_MS });
      expect(r.exitCode).toBe(0);
      // The kernel counts a period when its timer fires, which can be just after the program ended.
      await vi.waitFor(() => expect(sandbox.cpuStat()!.periods).toBeGreaterThan(0), EVENTUALLY);
      expect(sandbox.cpuStat()!.throttled).toBe(0);
      // Then the next sandbox on this machine still works.
      const next = new BwrapSandbox({ workspace: ws, cpus: 0.5 });
      expect((await next.exec({ argv: ["true"], timeoutMs: HANG_GUARD_MS })).exitCode).toBe(0);
      await next.close();
    } finally {
      await sandbox.close();
    }
  });

  it("refuses a CPU count that is not positive", () => {
    expect(() => new BwrapSandbox({ workspace: ws, cpus: 0 })).toThrow(/cpus must be a positive number/);
  });
});
