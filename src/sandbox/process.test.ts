import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HeadTailBuffer } from "./output-cap.js";
import { ProcessSandbox } from "./process.js";

let ws: string;
let sandbox: ProcessSandbox;

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), "acilab-sbx-"));
  sandbox = new ProcessSandbox({ workspace: ws });
});

afterEach(async () => {
  await sandbox.close();
  rmSync(ws, { recursive: true, force: true });
});

describe("ProcessSandbox", () => {
  it("passes a channel on fds 3 (to the host) and 4 (from the host) only when asked", async () => {
    const received: string[] = [];
    const r = await sandbox.exec({
      argv: ["bash", "-c", 'read -r line <&4; echo "got:$line" >&3; echo printed'],
      timeoutMs: 5000,
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
      timeoutMs: 5000,
    });
    expect(plain.output).toBe("closed\nclosed\n");
  });

  it("runs in the workspace with an empty environment plus the allowlist", async () => {
    process.env.ACILAB_TEST_SECRET = "sk-should-not-leak";
    try {
      const r = await sandbox.exec({ argv: ["bash", "-c", "pwd; env"], timeoutMs: 5000 });
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
    const marker = join(ws, "grandchild-alive");
    const started = performance.now();
    const r = await sandbox.exec({
      argv: ["bash", "-c", `(sleep 2; touch ${marker}) & sleep 30`],
      timeoutMs: 300,
    });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(performance.now() - started).toBeLessThan(5000);
    await new Promise((res) => setTimeout(res, 2500));
    expect(() => statSync(marker)).toThrow();
  });

  it("ends background children when the command itself finishes", async () => {
    const r = await sandbox.exec({ argv: ["bash", "-c", "sleep 60 & echo started"], timeoutMs: 5000 });
    expect(r.exitCode).toBe(0);
    expect(r.output.trim()).toBe("started");
    expect(r.durationMs).toBeLessThan(3000);
  });

  it("caps a flood of output and says how much was cut", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", "yes abcdefghij | head -c 2000000; echo; echo THE-END"],
      timeoutMs: 10_000,
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
        timeoutMs: 5000,
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
      timeoutMs: 5000,
    });
    expect(r.exitCode).toBe(3);
    expect(readFileSync(join(ws, "in.txt"), "utf8")).toBe("hello");
  });

  it("refuses a working directory outside the workspace", async () => {
    await expect(sandbox.exec({ argv: ["true"], cwd: "../..", timeoutMs: 1000 })).rejects.toThrow(/outside/);
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
