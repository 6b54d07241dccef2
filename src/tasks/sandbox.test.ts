import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, probeBwrap } from "../sandbox/index.js";
import { needing, unless } from "../testing/needs.js";
import { HANG_GUARD_MS } from "../testing/time.js";
import { cpuLimitFor, openTaskSandbox } from "./sandbox.js";

describe("cpuLimitFor", () => {
  it("never lets the CPU limit end a command before its wall-clock limit", () => {
    expect(cpuLimitFor(1_800_000)).toBe(1800);
    expect(cpuLimitFor(1_800_001)).toBe(1801);
    expect(cpuLimitFor(60_000)).toBe(DEFAULT_LIMITS.cpuSeconds);
  });
});

const probe = await probeBwrap();

needing("bwrap", unless(probe)).describe("openTaskSandbox's CPU limit", () => {
  const dir = mkdtempSync(join(tmpdir(), "acilab-task-sandbox-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives a sandbox whose test command may run 30 minutes 30 minutes of CPU too", async () => {
    const limitInside = async (options: { longestCommandMs?: number }) => {
      const { sandbox } = await openTaskSandbox({ language: "python" }, dir, undefined, options);
      try {
        const r = await sandbox.exec({ argv: ["sh", "-c", "ulimit -t"], timeoutMs: HANG_GUARD_MS });
        return r.stdout.trim();
      } finally {
        await sandbox.close();
      }
    };
    expect(await limitInside({ longestCommandMs: 1_800_000 })).toBe("1800");
    expect(await limitInside({})).toBe(String(DEFAULT_LIMITS.cpuSeconds));
  });
});
