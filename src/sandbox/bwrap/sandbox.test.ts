import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { needing, unless } from "../../testing/needs.js";
import { processesTagged, startTagged } from "../../testing/processes.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { openSandbox } from "../open.js";
import { probeBwrap } from "./detect.js";
import { BwrapSandbox } from "./sandbox.js";

const probe = await probeBwrap();
/** Tags the processes these tests expect to be gone (`exec -a`). */
const MARK = `acilab-bwrap-test-${process.pid}`;
if (!probe.ok) console.warn(`skipping BwrapSandbox tests: ${probe.reason}`);

needing("bwrap", unless(probe)).describe("BwrapSandbox", () => {
  let ws: string;
  let sandbox: BwrapSandbox;

  beforeAll(() => {
    ws = mkdtempSync(join(tmpdir(), "acilab-bwrap-"));
    mkdirSync(join(ws, "src"));
    writeFileSync(join(ws, "src", "hello.py"), "print('hello from', __import__('os').getcwd())\n");
    sandbox = new BwrapSandbox({ workspace: ws });
  });

  afterAll(async () => {
    await sandbox.close();
    rmSync(ws, { recursive: true, force: true });
  });

  it("runs the program in /workspace with only the allowlisted environment", async () => {
    process.env.ACILAB_TEST_SECRET = "sk-should-not-leak";
    try {
      const r = await sandbox.exec({
        argv: ["bash", "-c", "pwd; env; cat /proc/1/environ | tr '\\0' '\\n'"],
        timeoutMs: HANG_GUARD_MS,
      });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^\/workspace$/m);
      expect(r.stdout).not.toContain("sk-should-not-leak");
      expect(r.stdout).toMatch(/^PATH=/m);
      expect(r.stdout).toMatch(/^HOME=\/tmp$/m);
      expect(r.warnings).toEqual(sandbox.warnings);
    } finally {
      delete process.env.ACILAB_TEST_SECRET;
    }
  });

  it("takes cwd relative to the workspace and refuses one outside it", async () => {
    const r = await sandbox.exec({ argv: ["python3", "hello.py"], cwd: "src", timeoutMs: HANG_GUARD_MS });
    expect(r.stdout).toBe("hello from /workspace/src\n");
    await expect(sandbox.exec({ argv: ["true"], cwd: "../..", timeoutMs: HANG_GUARD_MS })).rejects.toThrow(
      /working directory refused/,
    );
  });

  it("writes land in the host workspace, owned by the sandbox user", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", "echo data > out.txt; mkdir -p d/e && touch d/e/f"],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(ws, "out.txt"), "utf8")).toBe("data\n");
    expect(statSync(join(ws, "d/e/f")).uid).toBe(sandbox.identity.uid);
  });

  it("passes stdin and keeps stdout and stderr apart", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", "cat; echo err >&2"],
      stdin: "in\n",
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.stdout).toBe("in\n");
    expect(r.stderr).toBe("err\n");
    expect(r.output).toContain("in\n");
  });

  it("reports the program's exit status, and a timeout as SIGKILL", async () => {
    expect((await sandbox.exec({ argv: ["sh", "-c", "exit 3"], timeoutMs: HANG_GUARD_MS })).exitCode).toBe(3);
    // 125 is also the wrapper's own failure status: a program's 125 must still come back as a result.
    expect((await sandbox.exec({ argv: ["sh", "-c", "exit 125"], timeoutMs: HANG_GUARD_MS })).exitCode).toBe(
      125,
    );
    expect(
      (await sandbox.exec({ argv: ["sh", "-c", "echo 'bwrap: mine' >&2; exit 1"], timeoutMs: HANG_GUARD_MS }))
        .exitCode,
    ).toBe(1);
    // Outlives vitest's own hang guard: if exec waited for it, the test would fail rather than pass slowly.
    const r = await sandbox.exec({
      argv: ["bash", "-c", `exec -a ${MARK}-timeout sleep 600`],
      timeoutMs: 300,
    });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.signal).toBe("SIGKILL");
    expect(processesTagged(`${MARK}-timeout`)).toEqual([]);
  });

  it("ends background children when the command finishes", async () => {
    // Waiting for the sleeper would run into the hang guard and come back timed out.
    const r = await sandbox.exec({
      argv: ["bash", "-c", `${startTagged(`${MARK}-background`, "sleep 600")}echo started`],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.output.trim()).toBe("started");
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    expect(processesTagged(`${MARK}-background`)).toEqual([]);
  });

  it("caps a flood of output like the process backend", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", "yes abcdefghij | head -c 2000000; echo; echo THE-END"],
      timeoutMs: HANG_GUARD_MS,
      outputLimit: 1000,
    });
    expect(r.output.length).toBeLessThan(1400);
    expect(r.truncatedChars).toBeGreaterThan(1_990_000);
    expect(r.output).toContain("THE-END");
  });

  it("passes the exec channel on fds 3 and 4 only when asked, and no other host descriptor", async () => {
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
    // listdir's own handle is closed again by the time readlink runs, so it drops out.
    const list =
      "import os\nfor fd in os.listdir('/proc/self/fd'):\n  try: print(fd, os.readlink(f'/proc/self/fd/{fd}'))\n  except OSError: pass";
    const plain = await sandbox.exec({ argv: ["python3", "-c", list], timeoutMs: HANG_GUARD_MS });
    const open = plain.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(" "));
    for (const [fd, target] of open) {
      if (["0", "1", "2"].includes(fd!)) continue;
      // Anything acilab itself inherited arrives covered by /dev/null.
      expect(target).toBe("/dev/null");
    }
    expect(open.map(([fd]) => fd)).not.toContain("3");
    expect(open.map(([fd]) => fd)).not.toContain("4");
  });

  it("shows extra read-only paths at the path the caller gave, readable and not writable", async () => {
    const shared = mkdtempSync(join(tmpdir(), "acilab-ro-"));
    chmodSync(shared, 0o755);
    writeFileSync(join(shared, "tool.txt"), "tool\n");
    const alias = `${shared}-alias`;
    symlinkSync(shared, alias);
    const withTools = new BwrapSandbox({ workspace: ws, readOnlyBinds: [alias] });
    try {
      const r = await withTools.exec({
        argv: ["bash", "-c", `cat ${alias}/tool.txt; echo x > ${alias}/new; echo rc=$?`],
        timeoutMs: HANG_GUARD_MS,
      });
      expect(r.stdout).toBe("tool\nrc=1\n");
      expect(r.stderr).toMatch(/Read-only file system|Permission denied/);
      expect(existsSync(join(shared, "new"))).toBe(false);
    } finally {
      await withTools.close();
      rmSync(alias);
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it("reports a missing program as a result the model can read", async () => {
    const r = await sandbox.exec({ argv: ["no-such-program"], timeoutMs: HANG_GUARD_MS });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/no-such-program: No such file or directory/);
  });

  it("reports a sandbox that cannot be set up as an error, not as the program's failure", async () => {
    const gone = mkdtempSync(join(tmpdir(), "acilab-gone-"));
    const doomed = new BwrapSandbox({ workspace: gone });
    rmSync(gone, { recursive: true });
    try {
      await expect(doomed.exec({ argv: ["true"], timeoutMs: HANG_GUARD_MS })).rejects.toThrow(
        /bwrap could not set up the sandbox/,
      );
    } finally {
      await doomed.close();
    }
  });

  it("openSandbox picks bwrap here, and the process backend only with a warning", async () => {
    const auto = await openSandbox({ workspace: ws });
    const plain = await openSandbox({ workspace: ws, backend: "process" });
    try {
      expect(auto.sandbox.backend).toBe("bwrap");
      expect(auto.warning).toBeUndefined();
      expect(plain.sandbox.backend).toBe("process");
      expect(plain.warning).toMatch(/no filesystem, network or process isolation/);
    } finally {
      await auto.sandbox.close();
      await plain.sandbox.close();
    }
  });

  it("refuses exec after close, and close twice is fine", async () => {
    const other = new BwrapSandbox({ workspace: ws });
    await other.close();
    await other.close();
    await expect(other.exec({ argv: ["true"], timeoutMs: HANG_GUARD_MS })).rejects.toThrow(/after close/);
  });
});
