import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { needing } from "../../testing/needs.js";
import { EVENTUALLY, HANG_GUARD_MS, startedBeforeTimeout } from "../../testing/time.js";
import { runscBuild } from "./build.js";
import { RunscSandbox } from "./sandbox.js";

const build = runscBuild();
if ("error" in build) console.warn(`skipping RunscSandbox tests: ${build.error}`);

/** Host processes whose command line mentions `text` (runsc, its gofer and sandbox name their --root). */
function hostProcessesWith(text: string): string[] {
  return execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(text) && !l.includes("ps -eo"));
}

needing("runsc", "error" in build && build.error).describe("RunscSandbox (gVisor)", () => {
  let ws: string;
  let sandbox: RunscSandbox;
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    ws = mkdtempSync(join(tmpdir(), "acilab-runsc-ws-"));
    writeFileSync(join(ws, "given.txt"), "from the host\n");
    sandbox = new RunscSandbox({ workspace: ws });
    server = createServer((s) => {
      connections++;
      s.end("hello\n");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await sandbox.close();
    server.close();
    rmSync(ws, { recursive: true, force: true });
  });

  it("runs a command in /workspace and returns its output, stdin and exit code", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", 'pwd; cat given.txt; read line; echo "in: $line"; echo oops >&2; exit 3'],
      stdin: "typed\n",
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("/workspace\nfrom the host\nin: typed\n");
    expect(r.stderr).toBe("oops\n");
    expect(r.timedOut).toBe(false);
    const missing = await sandbox.exec({ argv: ["no-such-program"], timeoutMs: HANG_GUARD_MS });
    expect(missing.exitCode).toBe(127);
    expect(missing.output).toMatch(/no-such-program: not found/);
  });

  it("caps the output like the other backends", async () => {
    const r = await sandbox.exec({
      argv: ["seq", "1", "20000"],
      outputLimit: 1000,
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.output.length).toBeLessThan(1200);
    expect(r.truncatedChars).toBeGreaterThan(100_000);
    expect(r.output).toMatch(/^1\n2\n/);
    expect(r.output).toMatch(/20000\n$/);
  });

  it("has only the allowlisted environment, an unprivileged uid, and no /etc/shadow", async () => {
    process.env.ACILAB_TEST_SECRET = "sk-runsc-should-not-leak";
    try {
      const r = await sandbox.exec({
        argv: [
          "bash",
          "-c",
          "env; tr '\\0' '\\n' </proc/1/environ; id -u; grep CapEff /proc/self/status; cat /etc/shadow; for d in /root /home /var; do test -e $d || echo no $d; done",
        ],
        timeoutMs: HANG_GUARD_MS,
      });
      expect(r.output).not.toContain("sk-runsc-should-not-leak");
      expect(r.stdout).toMatch(/^HOME=\/tmp$/m);
      expect(r.stdout).toMatch(/^CapEff:\s+0+$/m);
      const uid = Number(/^(\d+)$/m.exec(r.stdout)?.[1]);
      if (process.getuid?.() === 0) expect(uid).toBe(sandbox.identity.uid);
      expect(uid === 0 && process.getuid?.() === 0).toBe(false);
      expect(r.stderr).toMatch(/\/etc\/shadow: No such file/);
      expect(r.stdout).toContain("no /root\nno /home\nno /var\n");
    } finally {
      delete process.env.ACILAB_TEST_SECRET;
    }
  });

  it("lets the program write the workspace, /tmp and /dev/shm, and nothing else", async () => {
    const paths = [
      "/workspace/new.txt",
      "/tmp/t",
      "/dev/shm/s",
      "/usr/x",
      "/usr/bin/x",
      "/etc/x",
      "/x",
      "/proc/x",
    ];
    const script = paths
      .map((p) => `(echo w > ${p}) 2>/dev/null && echo "W ${p}" || echo "R ${p}"`)
      .join("; ");
    const r = await sandbox.exec({ argv: ["bash", "-c", script], timeoutMs: HANG_GUARD_MS });
    expect(r.stdout.split("\n").filter((l) => l.startsWith("W "))).toEqual([
      "W /workspace/new.txt",
      "W /tmp/t",
      "W /dev/shm/s",
    ]);
    expect(r.stdout.split("\n").filter((l) => l.startsWith("R "))).toHaveLength(5);
    // /tmp is private to the exec: the next one starts with an empty one.
    const again = await sandbox.exec({ argv: ["ls", "-A", "/tmp"], timeoutMs: HANG_GUARD_MS });
    expect(again.stdout).toBe("");
  });

  it("leaves files the host can read and git-diff", async () => {
    execFileSync("git", ["init", "-q", ws]);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "safe.directory=*", "-C", ws, ...args], { encoding: "utf8" });
    git("add", "given.txt");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base");
    const r = await sandbox.exec({
      argv: ["bash", "-c", "echo 'changed inside' >> given.txt; mkdir -p pkg && echo made > pkg/new.py"],
      timeoutMs: HANG_GUARD_MS,
    });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(ws, "pkg", "new.py"), "utf8")).toBe("made\n");
    if (process.getuid?.() === 0) expect(statSync(join(ws, "pkg", "new.py")).uid).toBe(sandbox.identity.uid);
    expect(git("diff")).toContain("+changed inside");
    expect(git("status", "--porcelain")).toContain("?? pkg/");
  });

  it("has no network: TCP to the host's loopback fails and the server never sees it", async () => {
    const code = `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=3)\n    print("CONNECTED")\nexcept OSError as e:\n    print("BLOCKED", e)`;
    const r = await sandbox.exec({ argv: ["python3", "-c", code], timeoutMs: HANG_GUARD_MS });
    expect(r.stdout).toMatch(/^BLOCKED/);
    expect(connections).toBe(0);
  });

  it("sees no host process and cannot signal one", async () => {
    const victim = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      const r = await sandbox.exec({
        argv: ["bash", "-c", `kill -9 ${victim.pid} 2>&1; kill -9 -1 2>&1; ls /proc | grep -c '^[0-9]'`],
        timeoutMs: HANG_GUARD_MS,
      });
      expect(r.output).toMatch(/No such process/);
      // A SIGKILL that landed has done its work when kill(2) returns: the victim would be a zombie
      // (state Z) or gone by now, whether or not this process has reaped it yet.
      const state = readFileSync(`/proc/${victim.pid}/stat`, "utf8").split(") ")[1]?.[0];
      expect(state).not.toBe("Z");
      expect(victim.exitCode).toBeNull();
    } finally {
      victim.kill("SIGKILL");
    }
  });

  it("kills a sleep and a setsid'd grandchild at the timeout", async () => {
    // "started" proves the program ran before the timeout: a slow gVisor start must not pass this
    // vacuously, so a start the timeout beat is tried again with a longer one.
    const r = await startedBeforeTimeout(
      3000,
      (timeoutMs) =>
        sandbox.exec({
          argv: [
            "bash",
            "-c",
            "echo started; setsid bash -c 'sleep 4; echo escaped > /workspace/late' & sleep 1000",
          ],
          timeoutMs,
        }),
      (r) => r.stdout === "started\n",
    );
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toBe("started\n");
    // Every guest process lives in this sandbox's runsc processes: once they are gone, so is the
    // grandchild, and nothing can write the file any more.
    await vi.waitFor(() => expect(hostProcessesWith(sandbox.dir)).toEqual([]), EVENTUALLY);
    expect(existsSync(join(ws, "late"))).toBe(false);
  });

  it("gives a code action its channel on fds 3 and 4", async () => {
    const r = await sandbox.exec({
      argv: ["bash", "-c", 'echo ping >&3; read -r reply <&4; echo "got $reply"'],
      timeoutMs: HANG_GUARD_MS,
      channel: {
        open({ fromProgram, toProgram }) {
          fromProgram.setEncoding("utf8");
          fromProgram.on("data", (d: string) => {
            if (d.includes("ping")) toProgram.write("pong\n");
          });
        },
      },
    });
    expect(r.stdout).toBe("got pong\n");
    expect(r.exitCode).toBe(0);
  });

  it("starts once more when gVisor's boot dies silently, and says so when it dies again", async () => {
    // A wrapper in front of the real runsc: its first `run` (or every one) fails the way a boot that
    // died in CI did; everything else is the real runsc. Each `run` leaves a line in the count file.
    const bin = mkdtempSync(join(tmpdir(), "acilab-runsc-bin-"));
    const count = join(bin, "runs");
    const wrapper = (failing: "first" | "always") => {
      const path = join(bin, `runsc-${failing}`);
      const fail = failing === "first" ? `[ "$(wc -l < ${count})" -le 1 ]` : "true";
      writeFileSync(
        path,
        `#!/bin/sh\ncase " $* " in *" run "*) echo run >> ${count}; if ${fail}; then echo 'running container: creating container: cannot create sandbox: cannot read client sync file: waiting for sandbox to start: EOF' >&2; exit 128; fi;; esac\nexec ${"binary" in build ? build.binary : "runsc"} "$@"\n`,
        { mode: 0o755 },
      );
      return path;
    };
    try {
      writeFileSync(count, "");
      const flaky = new RunscSandbox({ workspace: ws, binary: wrapper("first") });
      try {
        const r = await flaky.exec({ argv: ["echo", "ran"], timeoutMs: HANG_GUARD_MS });
        expect(r).toMatchObject({ exitCode: 0, stdout: "ran\n" });
        expect(readFileSync(count, "utf8")).toBe("run\nrun\n");
      } finally {
        await flaky.close();
      }
      writeFileSync(count, "");
      const dead = new RunscSandbox({ workspace: ws, binary: wrapper("always") });
      try {
        await expect(dead.exec({ argv: ["true"], timeoutMs: HANG_GUARD_MS })).rejects.toThrow(
          /runsc could not set up the sandbox: .*waiting for sandbox to start: EOF.*acilab doctor/,
        );
        expect(readFileSync(count, "utf8")).toBe("run\nrun\n");
      } finally {
        await dead.close();
      }
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("names the real cause when gVisor's gofer cannot bind a source (the boot only says EOF)", async () => {
    const gone = mkdtempSync(join(tmpdir(), "acilab-runsc-gone-"));
    const orphan = new RunscSandbox({ workspace: gone });
    rmSync(gone, { recursive: true, force: true });
    try {
      await expect(orphan.exec({ argv: ["true"], timeoutMs: HANG_GUARD_MS })).rejects.toThrow(
        new RegExp(`waiting for sandbox to start: EOF.*gVisor's log: the gofer: .*${gone}.*no such file`),
      );
    } finally {
      await orphan.close();
    }
  });

  it("close() leaves no runsc state directory and no runsc process", async () => {
    const other = new RunscSandbox({ workspace: ws });
    const running = other.exec({ argv: ["sleep", "1000"], timeoutMs: HANG_GUARD_MS });
    await vi.waitFor(() => expect(hostProcessesWith(other.dir).length).toBeGreaterThan(0), EVENTUALLY);
    await other.close();
    await running.catch(() => undefined);
    expect(existsSync(other.dir)).toBe(false);
    expect(hostProcessesWith(other.dir)).toEqual([]);
    await expect(other.exec({ argv: ["true"], timeoutMs: HANG_GUARD_MS })).rejects.toThrow(/after close/);
  });
});
