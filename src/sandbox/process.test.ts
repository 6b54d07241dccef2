import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { killTagged, processesTagged, startTagged } from "../testing/processes.js";
import { EVENTUALLY, HANG_GUARD_MS, startedBeforeTimeout } from "../testing/time.js";
import { HeadTailBuffer } from "./output-cap.js";
import { ProcessSandbox } from "./process.js";

let ws: string;
let sandbox: ProcessSandbox;
/** Tags the processes these tests expect to be killed (`exec -a`). */
const MARK = `acilab-process-test-${process.pid}`;

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), "acilab-sbx-"));
  sandbox = new ProcessSandbox({ workspace: ws });
});

afterEach(async () => {
  await sandbox.close();
  killTagged(MARK); // what a failed test left behind
  rmSync(ws, { recursive: true, force: true });
});

describe("ProcessSandbox", () => {
  it("passes a channel on fds 3 (to the host) and 4 (from the host) only when asked", async () => {
    const received: string[] = [];
    const r = await sandbox.exec({
      argv: ["bash", "-c", 'read -r line <&4; echo "got:$line" >&3; echo printed'],
      timeoutMs: HANG_GUARD_MS,
      channel: {
        open({ fromProgram, toProgram }) {
          fromProgram.setEncoding("utf8");
          fromProgram.on("data", (d: string) => received.push(d));
          toProgram.write("ping\n");
        },
      },
    });
    expect(r.output).toBe("printed\n");
    expect(received.join("")).toBe("got:ping\n");
    const plain = await sandbox.exec({
      argv: ["bash", "-c", "for fd in 3 4; do [ -e /proc/$$/fd/$fd ] && echo open || echo closed; done"],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(plain.output).toBe("closed\nclosed\n");
  });

  it("runs in the workspace with an empty environment plus the allowlist", async () => {
    process.env.ACILAB_TEST_SECRET = "sk-should-not-leak";
    try {
      const r = await sandbox.exec({ argv: ["bash", "-c", "pwd; env"], timeoutMs: HANG_GUARD_MS });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(`${ws}\n`);
      expect(r.stdout).not.toContain("sk-should-not-leak");
      expect(r.stdout).not.toMatch(/ANTHROPIC|OPENAI|NODE_OPTIONS/);
      expect(r.stdout).toMatch(/^PATH=/m);
    } finally {
      delete process.env.ACILAB_TEST_SECRET;
    }
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const r = await startedBeforeTimeout(
      300,
      (timeoutMs) =>
        sandbox.exec({
          argv: ["bash", "-c", `${startTagged(`${MARK}-grandchild`, "sleep 600")}echo started; sleep 600`],
          timeoutMs,
        }),
      (r) => r.stdout.includes("started"),
    );
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    // SIGKILL is delivered, not awaited: the grandchild is gone a moment after exec returns.
    await vi.waitFor(() => expect(processesTagged(`${MARK}-grandchild`)).toEqual([]), EVENTUALLY);
  });

  it("ends background children when the command itself finishes", async () => {
    // Waiting for the sleeper would run into the hang guard and come back timed out.
    const r = await sandbox.exec({
      argv: ["bash", "-c", `${startTagged(`${MARK}-background`, "sleep 600")}echo started`],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    expect(r.output.trim()).toBe("started");
    await vi.waitFor(() => expect(processesTagged(`${MARK}-background`)).toEqual([]), EVENTUALLY);
  });

  it("caps a flood of output and says how much was cut", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", "yes abcdefghij | head -c 2000000; echo; echo THE-END"],
      timeoutMs: HANG_GUARD_MS,
      outputLimit: 1000,
    });
    expect(r.output.length).toBeLessThan(1400);
    expect(r.truncatedChars).toBeGreaterThan(1_990_000);
    expect(r.output).toMatch(/characters cut from the middle of the output/);
    expect(r.output).toContain("THE-END");
  });

  it("enforces the file-size rlimit", async () => {
    const small = new ProcessSandbox({ workspace: ws, limits: { fileSizeBytes: 1024 * 1024 } });
    try {
      const r = await small.exec({
        argv: ["bash", "-c", "head -c 5000000 /dev/zero > big.bin"],
        timeoutMs: HANG_GUARD_MS,
      });
      expect(r.exitCode).not.toBe(0);
      expect(statSync(join(ws, "big.bin")).size).toBeLessThanOrEqual(1024 * 1024);
    } finally {
      await small.close();
    }
  });

  it("passes stdin and reports non-zero exits", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", "cat > in.txt; exit 3"],
      stdin: "hello",
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.exitCode).toBe(3);
    expect(readFileSync(join(ws, "in.txt"), "utf8")).toBe("hello");
  });

  it("refuses a working directory outside the workspace", async () => {
    await expect(sandbox.exec({ argv: ["true"], cwd: "../..", timeoutMs: HANG_GUARD_MS })).rejects.toThrow(
      /outside/,
    );
  });
});

describe("HeadTailBuffer", () => {
  it("keeps everything under the limit and head+tail above it", () => {
    const b = new HeadTailBuffer(10);
    b.push("12345");
    expect(b.text()).toBe("12345");
    b.push("6789abcdefghij");
    expect(b.cut).toBe(9);
    expect(b.text().startsWith("12345")).toBe(true);
    expect(b.text().endsWith("fghij")).toBe(true);
  });
});
