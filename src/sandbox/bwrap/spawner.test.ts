import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { needing } from "../../testing/needs.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { type SpawnedChild, Spawner, type SpawnRequest, useSpawner } from "./spawner.js";

const spawner = Spawner.start();
afterAll(() => spawner?.stop());

function request(argv: string[], extra: Partial<SpawnRequest> = {}): SpawnRequest {
  return {
    argv,
    env: { PATH: "/usr/bin:/bin" },
    join: [],
    rlimits: {},
    uid: null,
    gid: null,
    pipes: { 0: "r", 1: "w", 2: "w" },
    ...extra,
  };
}

function collect(stream: Readable | null | undefined): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    if (!stream) return resolve(text);
    stream.setEncoding("utf8");
    stream.on("data", (d: string) => {
      text += d;
    });
    stream.on("close", () => resolve(text));
  });
}

function exited(child: SpawnedChild): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((r) => child.once("exit", (code, signal) => r({ code, signal })));
}

needing("python3", !spawner && "no python3 to start the spawner").describe("the sandbox spawner", () => {
  it("runs a program with our pipes as its stdin, stdout, stderr and extra descriptors", async () => {
    const child = await spawner!.spawn(
      request(
        ["sh", "-c", 'read -r a; echo "out:$a"; echo err >&2; read -r b <&4; echo "ch:$b" >&3; exit 3'],
        {
          pipes: { 0: "r", 1: "w", 2: "w", 3: "w", 4: "r" },
        },
      ),
    );
    const [out, err, ch] = [collect(child.stdout), collect(child.stderr), collect(child.streams.get(3))];
    child.stdin?.end("hello\n");
    child.streams.get(4)?.end("side\n");
    expect(await exited(child)).toEqual({ code: 3, signal: null });
    expect([await out, await err, await ch]).toEqual(["out:hello\n", "err\n", "ch:side\n"]);
  });

  it("reports exits that race the reply, every time", async () => {
    for (let i = 0; i < 30; i++) {
      const child = await spawner!.spawn(request(["/bin/true"]));
      expect(await exited(child)).toEqual({ code: 0, signal: null });
    }
  });

  it("joins the named files, sets rlimits, and passes only the descriptors asked for", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-spawner-"));
    try {
      const joined = join(dir, "tasks");
      writeFileSync(joined, "");
      const child = await spawner!.spawn(
        request(["sh", "-c", "ulimit -n; ulimit -c; ls /proc/self/fd"], {
          join: [joined],
          rlimits: { nofile: 77, core: 0 },
          seccomp: { fd: 6, data: Buffer.from("filter") },
        }),
      );
      const out = collect(child.stdout);
      expect((await exited(child)).code).toBe(0);
      const [nofile, core, ...fds] = (await out).trim().split("\n");
      expect([nofile, core]).toEqual(["77", "0"]);
      // 0–2, the seccomp pipe, and ls's own handle on the directory it lists.
      expect(fds.map(Number).filter((fd) => fd !== 3)).toEqual([0, 1, 2, 6]);
      expect(readFileSync(joined, "utf8")).toBe("0");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports what failed before the program started, as the sh wrapper did", async () => {
    const child = await spawner!.spawn(request(["/nonexistent/program"]));
    const err = collect(child.stderr);
    expect((await exited(child)).code).toBe(125);
    expect(await err).toMatch(/^acilab sandbox wrapper: .*nonexistent/);
  });

  it("kills the process group when asked and reports the signal", async () => {
    const child = await spawner!.spawn(request(["sh", "-c", "sleep 30 & sleep 30"]));
    process.kill(-child.pid, "SIGKILL");
    expect(await exited(child)).toEqual({ code: null, signal: "SIGKILL" });
  });
});

describe("without the spawner (no system python3)", () => {
  it("the sh wrapper starts the same sandbox: cgroup joined, sandbox uid, channel on fds 3 and 4", async () => {
    const { BwrapSandbox } = await import("./sandbox.js");
    const { probeBwrap } = await import("./detect.js");
    if (!(await probeBwrap()).ok) return;
    const dir = mkdtempSync(join(tmpdir(), "acilab-spawner-ws-"));
    useSpawner(false);
    const sandbox = new BwrapSandbox({ workspace: dir });
    try {
      const received: string[] = [];
      const r = await sandbox.exec({
        argv: ["sh", "-c", 'read -r l <&4; echo "got:$l" >&3; id -u; ulimit -c'],
        timeoutMs: HANG_GUARD_MS,
        channel: {
          open({ fromProgram, toProgram }) {
            fromProgram.setEncoding("utf8");
            fromProgram.on("data", (d: string) => received.push(d));
            toProgram.end("ping\n");
          },
        },
      });
      expect([r.exitCode, r.stdout]).toEqual([0, "1000\n0\n"]);
      expect(received.join("")).toBe("got:ping\n");
    } finally {
      useSpawner(true);
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
