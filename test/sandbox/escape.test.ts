/**
 * Adversarial suite for the bwrap backend: each case runs a real attack inside a BwrapSandbox and
 * proves containment from the host side where it can (files unchanged, servers never contacted,
 * victims alive, no process left). Every script also prints what it attempted, so a missing tool
 * cannot make a case pass by doing nothing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
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
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AUDIT_ARCH_AARCH64, AUDIT_ARCH_X86_64, SYSCALL_TABLES } from "../../src/sandbox/bwrap/seccomp.js";
import { type BwrapExecResult, BwrapSandbox, probeBwrap } from "../../src/sandbox/index.js";
import { needing, unless } from "../../src/testing/needs.js";
import { processesTagged, untilRunning } from "../../src/testing/processes.js";
import { EVENTUALLY, HANG_GUARD_MS, startedBeforeTimeout } from "../../src/testing/time.js";

const probe = await probeBwrap();
if (!probe.ok) console.warn(`SKIPPING the sandbox escape suite: bwrap cannot run here — ${probe.reason}`);

const SECRET = `sk-escape-${process.pid}-${Date.now()}`;
const MARK = `acilab-escapee-${process.pid}`;
const MEMORY = 256 * 1024 ** 2;
const PIDS = 64;
const FSIZE = 8 * 1024 ** 2;

let root: string;
let ws: string;
let sandbox: BwrapSandbox;
let tcp: Server;
let tcpPort: number;
let tcpConnections = 0;
let udp: UdpSocket;
let udpPort: number;
let udpMessages = 0;
/** Sent by the host after the sandbox's datagram: loopback delivers in order, so once it is here, the other would be too. */
const MARKER = "host-marker";
let markers = 0;
let unixServer: Server;
let unixPath: string;
let abstractServer: Server;
let abstractConnections = 0;
let unixConnections = 0;
let victim: ChildProcess;
const savedHome = process.env.HOME;

function sh(script: string, timeoutMs = HANG_GUARD_MS): Promise<BwrapExecResult> {
  return sandbox.exec({ argv: ["bash", "-c", script], timeoutMs });
}

function py(code: string, timeoutMs = HANG_GUARD_MS): Promise<BwrapExecResult> {
  return sandbox.exec({ argv: ["/usr/bin/python3", "-c", code], timeoutMs });
}

/** Python that tries `attempt` and prints "<label>: BLOCKED <error>" or "<label>: ESCAPED". */
function tryPy(label: string, attempt: string): string {
  return `try:\n${attempt
    .split("\n")
    .map((l) => `    ${l}`)
    .join(
      "\n",
    )}\n    print("${label}: ESCAPED")\nexcept Exception as e:\n    print("${label}: BLOCKED", type(e).__name__, e)\n`;
}

needing("bwrap", unless(probe)).describe("bwrap sandbox escape attempts", () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "acilab-escape-"));
    chmodSync(root, 0o711); // the sandbox user may pass through to its workspace, never list or read here
    ws = join(root, "ws");
    mkdirSync(ws);
    mkdirSync(join(root, "home/.ssh"), { recursive: true });
    writeFileSync(join(root, "home/.secret"), SECRET);
    writeFileSync(join(root, "home/.ssh/id_ed25519"), SECRET);
    mkdirSync(join(root, "outside"));
    writeFileSync(join(root, "outside/secret.txt"), SECRET);
    mkdirSync(join(root, "hidden_tests"));
    writeFileSync(join(root, "hidden_tests/test_grader_only.py"), "assert True\n");
    symlinkSync(join(root, "outside"), join(ws, "planted-link"));

    process.env.ACILAB_TEST_SECRET = SECRET;
    process.env.HOME = join(root, "home");

    tcp = createServer((s) => {
      tcpConnections++;
      s.destroy();
    });
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
    tcpPort = (tcp.address() as { port: number }).port;
    udp = createSocket("udp4");
    udp.on("message", (m) => {
      if (m.toString() === MARKER) markers++;
      else udpMessages++;
    });
    await new Promise<void>((r) => udp.bind(0, "127.0.0.1", r));
    udpPort = udp.address().port;
    unixPath = join(root, "host.sock");
    unixServer = createServer((s) => {
      unixConnections++;
      s.destroy();
    });
    await new Promise<void>((r) => unixServer.listen(unixPath, r));
    abstractServer = createServer((s) => {
      abstractConnections++;
      s.destroy();
    });
    await new Promise<void>((r) => abstractServer.listen(`\0${MARK}-abstract`, r));
    victim = spawn("sleep", ["300"], { stdio: "ignore" });

    sandbox = new BwrapSandbox({
      workspace: ws,
      memoryBytes: MEMORY,
      pids: PIDS,
      limits: { fileSizeBytes: FSIZE },
    });
  });

  afterAll(async () => {
    await sandbox?.close();
    delete process.env.ACILAB_TEST_SECRET;
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
    victim?.kill("SIGKILL");
    for (const s of [tcp, unixServer, abstractServer]) s?.close();
    udp?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  describe("secrets", () => {
    it("1. the parent's environment does not reach the program", async () => {
      const r = await sh("env; cat /proc/self/environ | tr '\\0' '\\n'; echo ATTEMPTED");
      expect(r.stdout).toContain("ATTEMPTED");
      expect(r.output).not.toContain(SECRET);
      expect(r.stdout).not.toMatch(/ACILAB_TEST_SECRET|ANTHROPIC|OPENAI|NODE_OPTIONS/);
    });

    it("2. /proc/1/environ is the sandbox's own init, with no secrets; host processes are invisible", async () => {
      const r = await sh(
        `tr '\\0' '\\n' < /proc/1/environ; ls /proc | grep -E '^[0-9]+$' | wc -l; cat /proc/${process.pid}/environ /proc/${victim.pid}/environ; echo ATTEMPTED`,
      );
      expect(r.stdout).toContain("ATTEMPTED");
      expect(r.output).not.toContain(SECRET);
      const visible = Number(r.stdout.split("\n").find((l) => /^\d+$/.test(l)));
      expect(visible).toBeLessThan(10); // bwrap's init, bash, its children: not the host's hundreds
      expect(r.stderr).toMatch(/No such file or directory/);
    });

    it("3. the host $HOME is not mounted, and HOME inside is an empty private /tmp", async () => {
      const r = await sh(`cat ${root}/home/.secret; echo "home=$HOME"; ls -A ~ | wc -l; echo ATTEMPTED`);
      expect(r.output).not.toContain(SECRET);
      expect(r.stderr).toMatch(/No such file or directory/);
      expect(r.stdout).toMatch(/^home=\/tmp$/m);
      expect(r.stdout).toMatch(/^0$/m);
    });

    it("4. ~/.ssh of the host and of root are not there", async () => {
      const r = await sh(`ls /root/.ssh; cat ${root}/home/.ssh/id_ed25519; echo ATTEMPTED`);
      expect(r.output).not.toContain(SECRET);
      expect(r.stderr.match(/No such file or directory/g)?.length).toBe(2);
    });

    it("5. /etc/shadow is unreadable and the program is not uid 0", async () => {
      const r = await sh("cat /etc/shadow; id -u; echo ATTEMPTED");
      expect(r.stderr).toMatch(/No such file or directory|Permission denied/);
      expect(r.stdout).not.toMatch(/^root:/m);
      expect(r.stdout).toMatch(/^1000$/m);
    });

    it("6. the program holds no capabilities, not even in its bounding set", async () => {
      const r = await sh(
        "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status; grep NoNewPrivs /proc/self/status",
      );
      for (const cap of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"])
        expect(r.stdout).toMatch(new RegExp(`^${cap}:\\s+0000000000000000$`, "m"));
      expect(r.stdout).toMatch(/^NoNewPrivs:\s+1$/m);
    });

    it("7. setuid binaries do not elevate (no_new_privs)", async () => {
      const r = await sh("su -c id root </dev/null; echo rc=$?");
      expect(r.stdout).toMatch(/^rc=[1-9]/m);
      expect(r.stdout).not.toMatch(/uid=0/);
    });

    it("8. hidden tests and grader files are never mounted", async () => {
      const r = await sh(
        `find / -name 'test_grader_only.py' 2>/dev/null; ls ${root}/hidden_tests; echo ATTEMPTED`,
      );
      expect(r.stdout.trim()).toBe("ATTEMPTED");
    });
  });

  describe("filesystem", () => {
    it("9. writes outside the workspace by absolute path fail (read-only root)", async () => {
      const r = await sh(
        "for p in /evil /etc/evil /usr/evil /usr/bin/evil /workspace-evil; do echo x > $p && echo WROTE $p; done; echo ATTEMPTED",
      );
      expect(r.stdout).toContain("ATTEMPTED");
      expect(r.stdout).not.toContain("WROTE");
      expect(r.stderr).toMatch(/Read-only file system/);
      for (const p of ["/evil", "/etc/evil", "/usr/evil", "/usr/bin/evil"]) expect(existsSync(p)).toBe(false);
    });

    it("10. `..` out of the workspace lands in the sandbox's read-only root, not the host", async () => {
      const r = await sh(
        "echo x > /workspace/../escape.txt; cd /workspace/../.. && pwd && echo x > escape2.txt; echo ATTEMPTED",
      );
      expect(r.stdout).toContain("ATTEMPTED");
      expect(r.stderr).toMatch(/Read-only file system/);
      expect(existsSync(join(root, "escape.txt"))).toBe(false);
      expect(existsSync("/escape2.txt")).toBe(false);
    });

    it("11. /tmp is private: a file written there never appears in the host's /tmp", async () => {
      const name = `${MARK}-tmp`;
      const r = await sh(`echo x > /tmp/${name} && echo WROTE`);
      expect(r.stdout).toContain("WROTE");
      expect(existsSync(join("/tmp", name))).toBe(false);
      expect(existsSync(join(tmpdir(), name))).toBe(false);
    });

    it("12. a symlink planted in the workspace pointing out leads nowhere", async () => {
      const r = await sh(
        "cat planted-link/secret.txt; echo x > planted-link/new.txt; ls -l planted-link; echo ATTEMPTED",
      );
      expect(r.stdout).toContain("ATTEMPTED");
      expect(r.output).not.toContain(SECRET);
      expect(existsSync(join(root, "outside/new.txt"))).toBe(false);
      expect(readFileSync(join(root, "outside/secret.txt"), "utf8")).toBe(SECRET);
    });

    it("13. a symlink the program makes to a system file cannot be written through", async () => {
      const before = readFileSync("/etc/hosts", "utf8");
      const r = await sh(
        "ln -sf /etc/hosts h && echo x >> h; ln -sf /usr/bin/env e && echo x >> e; echo ATTEMPTED",
      );
      expect(r.stdout).toContain("ATTEMPTED");
      expect(r.stderr.match(/Read-only file system|Permission denied/g)?.length).toBe(2);
      expect(readFileSync("/etc/hosts", "utf8")).toBe(before);
    });

    it("14. a hard link to a file outside the workspace is refused (other mounts, EXDEV)", async () => {
      const r = await sh(
        `ln /etc/ld.so.cache hl1; ln /usr/bin/env hl2; ln ${root}/outside/secret.txt hl3; echo ATTEMPTED`,
      );
      expect(r.stdout).toContain("ATTEMPTED");
      expect(r.stderr.match(/Invalid cross-device link/g)?.length).toBe(2);
      expect(r.stderr).toMatch(/No such file or directory/);
      for (const f of ["hl1", "hl2", "hl3"]) expect(existsSync(join(ws, f))).toBe(false);
    });

    it("15. a huge file stops at RLIMIT_FSIZE (dd, truncate and fallocate to 50 GB)", async () => {
      const r = await sh(
        "dd if=/dev/zero of=big bs=1M count=64 status=none; echo dd=$?; truncate -s 50G sparse; echo truncate=$?; fallocate -l 50G falloc; echo fallocate=$?",
      );
      expect(r.stdout).toMatch(/^dd=(?!0$)\d+$/m);
      expect(r.stdout).toMatch(/^truncate=(?!0$)\d+$/m);
      expect(r.stdout).toMatch(/^fallocate=(?!0$)\d+$/m);
      expect(statSync(join(ws, "big")).size).toBeLessThanOrEqual(FSIZE);
      for (const f of ["sparse", "falloc"])
        if (existsSync(join(ws, f))) expect(statSync(join(ws, f)).size).toBeLessThanOrEqual(FSIZE);
    });

    it("16. mount and unshare are refused inside", async () => {
      const r = await sh(
        "mkdir -p m; mount -t tmpfs none m; echo mount=$?; unshare -U true; echo userns=$?; unshare -r true; echo rootns=$?; unshare -m true; echo mntns=$?; unshare -n true; echo netns=$?",
      );
      for (const k of ["mount", "userns", "rootns", "mntns", "netns"])
        expect(r.stdout).toMatch(new RegExp(`^${k}=[1-9]`, "m"));
      expect(r.stderr).toMatch(/Operation not permitted/);
    });

    it("17. the kernel's knobs in /proc/sys and raw devices are out of reach", async () => {
      const r = await sh(
        "echo 1 > /proc/sys/kernel/sysrq; echo sysctl=$?; ls /dev; cat /dev/vda /dev/mem /dev/kmsg 2>&1 | head -3",
      );
      expect(r.stdout).toMatch(/^sysctl=[1-9]/m);
      expect(r.stdout).not.toMatch(/\b(vda|sda|nvme0n1|mem|kmsg)\b\n/);
      expect(r.output).toMatch(/No such file or directory/);
    });

    it("18. another sandbox's workspace is not visible", async () => {
      const other = join(root, "ws2");
      mkdirSync(other);
      writeFileSync(join(other, "their-secret"), SECRET);
      const neighbour = new BwrapSandbox({ workspace: other });
      try {
        const r = await sh(`cat ${other}/their-secret; ls /workspace; echo ATTEMPTED`);
        expect(r.output).not.toContain(SECRET);
        expect(r.stdout).not.toContain("their-secret");
      } finally {
        await neighbour.close();
      }
    });
  });

  describe("resources and processes", () => {
    it("19. a fork bomb is held at the pids limit and everything dies with the exec", async () => {
      // The bomb keeps forking in the background while the main process waits, on builtins alone
      // (after the bomb it could not fork a sleep), for the host to let it finish.
      const stop = join(ws, "stop-the-bomb");
      const bomb = `exec -a ${MARK}-bomb bash -c 'mkfifo /tmp/idle; exec 9<>/tmp/idle; b(){ b | b & }; b; until [ -e stop-the-bomb ]; do read -t 0.1 -u 9; done; echo main-done'`;
      const running = sh(bomb);
      let during = 0;
      const count = () => {
        during = Math.max(during, processesTagged(`${MARK}-bomb`).length);
        return during;
      };
      try {
        await vi.waitFor(() => expect(count()).toBeGreaterThan(PIDS / 4), EVENTUALLY); // it did fork…
        for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 20)).then(count);
      } finally {
        writeFileSync(stop, "");
      }
      const r = await running;
      rmSync(stop);
      expect(during).toBeLessThanOrEqual(PIDS); // …up to the limit
      expect(r.stdout).toBe("main-done\n");
      // The pids cgroup counts the refusals; RLIMIT_NPROC (the fallback without cgroups) does not.
      if (sandbox.cgroupMode !== "none") expect(r.warnings.join(" ")).toMatch(/process limit refused/);
      expect(processesTagged(`${MARK}-bomb`)).toEqual([]);
    });

    it("20. an infinite loop is stopped by the wall-clock timeout, and nothing of it is left", async () => {
      const r = await sh(`exec -a ${MARK}-loop bash -c 'while :; do :; done'`, 500);
      expect(r.timedOut).toBe(true);
      expect(r.signal).toBe("SIGKILL");
      expect(processesTagged(`${MARK}-loop`)).toEqual([]);
    });

    it("21. a sleeping grandchild left behind is gone when exec returns", async () => {
      // Each subshell waits until its grandchild runs, then exits and leaves it behind.
      const r = await sh(
        `(${untilRunning()}(exec -a ${MARK}-grandchild sleep 300 &); until running ${MARK}-grandchild; do :; done); (bash -c 'exec -a ${MARK}-grandchild2 sleep 300' &); ${untilRunning(`${MARK}-grandchild2`)}echo left`,
      );
      expect(r.stdout).toBe("left\n");
      expect(processesTagged(`${MARK}-grandchild`)).toEqual([]);
    });

    it("22. a setsid escapee (new session, double fork, nohup) is gone when exec returns", async () => {
      const r = await sh(
        `setsid -f bash -c 'exec -a ${MARK}-setsid sleep 300'; nohup setsid bash -c '(exec -a ${MARK}-daemon sleep 300 &)' >/dev/null 2>&1 & ${untilRunning(`${MARK}-setsid`, `${MARK}-daemon`)}echo left`,
      );
      expect(r.stdout).toBe("left\n");
      expect(processesTagged(`${MARK}-setsid`)).toEqual([]);
      expect(processesTagged(`${MARK}-daemon`)).toEqual([]);
    });

    it("23. escapees of a timed-out exec are gone too", async () => {
      // Only an escapee that was running when the timeout hit proves anything.
      const r = await startedBeforeTimeout(
        400,
        (timeoutMs) =>
          sh(
            `setsid -f bash -c 'exec -a ${MARK}-late sleep 300'; ${untilRunning(`${MARK}-late`)}echo started; sleep 300`,
            timeoutMs,
          ),
        (r) => r.stdout === "started\n",
      );
      expect(r.timedOut).toBe(true);
      expect(r.stdout).toBe("started\n");
      expect(processesTagged(`${MARK}-late`)).toEqual([]);
    });

    it("24. a memory blow-up is killed by the cgroup, not the host", async (ctx) => {
      // Without a cgroup (not root, no delegation) memory is not limited, and the sandbox says so.
      if (sandbox.cgroupMode === "none") ctx.skip();
      const r = await py("b = b'x' * 1024 ** 3\nprint('ALLOCATED', len(b))");
      expect(r.stdout).not.toContain("ALLOCATED");
      expect(r.exitCode).toBe(137); // SIGKILL from the OOM killer, as bwrap reports it (128 + 9)
      expect(r.warnings.join(" ")).toMatch(/memory limit killed 1 process/);
    });

    it("25. kill -9 of a host process from inside fails; the victim lives", async () => {
      const r = await sh(`kill -9 ${victim.pid}; echo rc=$?; kill -9 -1; echo all=$?`);
      expect(r.stdout).toMatch(/^rc=1$/m);
      expect(victim.exitCode).toBeNull();
      expect(() => process.kill(victim.pid!, 0)).not.toThrow();
    });

    it("26. ptrace, bpf, keyctl, io_uring and perf are refused by seccomp", async () => {
      const table = SYSCALL_TABLES.find(
        (t) => t.arch === (process.arch === "arm64" ? AUDIT_ARCH_AARCH64 : AUDIT_ARCH_X86_64),
      )!;
      const names = ["ptrace", "bpf", "keyctl", "io_uring_setup", "perf_event_open", "add_key", "chroot"];
      const calls = names.map((n) => `('${n}', ${table.denied[n]})`).join(", ");
      const code = [
        "import ctypes, os",
        "libc = ctypes.CDLL(None, use_errno=True)",
        `for name, nr in [${calls}]:`,
        "    rc = libc.syscall(nr, 0, 0, 0, 0, 0, 0)",
        "    print(name, rc, os.strerror(ctypes.get_errno()))",
      ].join("\n");
      const r = await py(code);
      expect(r.stdout.trim().split("\n")).toHaveLength(7);
      for (const line of r.stdout.trim().split("\n")) expect(line).toMatch(/ -1 Operation not permitted$/);
    });
  });

  describe("network", () => {
    it("27. TCP to the outside (1.1.1.1:53) fails", async () => {
      const r = await py(
        tryPy("tcp-out", "import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=3)"),
      );
      expect(r.stdout).toMatch(/^tcp-out: BLOCKED .*Operation not permitted/m);
    });

    it("28. TCP to a server on the host's loopback fails: the sandbox's loopback is its own", async () => {
      const r = await py(
        tryPy("tcp-host", `import socket\nsocket.create_connection(('127.0.0.1', ${tcpPort}), timeout=3)`),
      );
      const b = await sh(`exec 3<>/dev/tcp/127.0.0.1/${tcpPort}; echo rc=$?`);
      expect(r.stdout).toMatch(/^tcp-host: BLOCKED/m);
      expect(b.stdout).toMatch(/^rc=1$/m);
      expect(tcpConnections).toBe(0);
    });

    it("29. IPv6 loopback fails too", async () => {
      const r = await py(
        tryPy("tcp6", `import socket\nsocket.create_connection(('::1', ${tcpPort}), timeout=3)`),
      );
      expect(r.stdout).toMatch(/^tcp6: BLOCKED/m);
    });

    it("30. UDP to the host's loopback never arrives", async () => {
      const r = await py(
        tryPy(
          "udp",
          `import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b'x', ('127.0.0.1', ${udpPort}))`,
        ),
      );
      expect(r.stdout).toMatch(/^udp: BLOCKED/m);
      const host = createSocket("udp4");
      host.send(MARKER, udpPort, "127.0.0.1", () => host.close());
      await vi.waitFor(() => expect(markers).toBe(1), EVENTUALLY);
      expect(udpMessages).toBe(0);
    });

    it("31. DNS resolution fails", async () => {
      const r = await py(tryPy("dns", "import socket\nprint(socket.getaddrinfo('example.com', 443))"));
      const g = await sh("getent hosts example.com; echo rc=$?");
      expect(r.stdout).toMatch(/^dns: BLOCKED/m);
      expect(g.stdout).toMatch(/^rc=[1-9]/m);
    });

    it("32. only the loopback interface exists", async () => {
      const r = await sh("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '");
      expect(r.stdout.trim()).toBe("lo");
    });

    it("33. vsock, netlink and packet sockets are refused", async () => {
      const r = await py(
        [
          tryPy("vsock", "import socket\nsocket.socket(40, socket.SOCK_STREAM)"),
          tryPy("netlink", "import socket\nsocket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)"),
          tryPy("packet", "import socket\nsocket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)"),
        ].join(""),
      );
      for (const k of ["vsock", "netlink", "packet"])
        expect(r.stdout).toMatch(new RegExp(`^${k}: BLOCKED .*Operation not permitted`, "m"));
    });

    it("34. a Unix socket in the workspace's parent (not bound) is unreachable", async () => {
      const r = await py(
        tryPy("unix", `import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('${unixPath}')`),
      );
      expect(r.stdout).toMatch(/^unix: BLOCKED FileNotFoundError/m);
      expect(unixConnections).toBe(0);
    });

    it("35. the host's abstract Unix sockets are unreachable (they belong to the host's network namespace)", async () => {
      const r = await py(
        tryPy(
          "abstract",
          `import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('\\0${MARK}-abstract')`,
        ),
      );
      expect(r.stdout).toMatch(/^abstract: BLOCKED ConnectionRefusedError/m);
      expect(abstractConnections).toBe(0);
    });

    it("36. Unix sockets inside the sandbox still work (pipes, local IPC)", async () => {
      const r = await py(
        "import socket\na, b = socket.socketpair()\na.send(b'ok')\nprint(b.recv(2).decode())",
      );
      expect(r.stdout).toBe("ok\n");
    });
  });

  it("37. nothing of the sandbox survives close()", async () => {
    await sh(
      `setsid -f bash -c 'exec -a ${MARK}-final sleep 300'; ${untilRunning(`${MARK}-final`)}echo done`,
    );
    await sandbox.close();
    expect(processesTagged(MARK)).toEqual([]);
  });

  /** A sandbox with a network allowlist; `run` gets a helper that runs Python in it. */
  async function withAllowlist(
    allow: string[],
    run: (py: (code: string) => Promise<BwrapExecResult>) => Promise<void>,
  ): Promise<void> {
    const netSandbox = new BwrapSandbox({ workspace: ws, network: { allow } });
    try {
      await run((code) =>
        netSandbox.exec({ argv: ["/usr/bin/python3", "-c", code], timeoutMs: HANG_GUARD_MS }),
      );
    } finally {
      await netSandbox.close();
    }
  }

  /** Python that sends CONNECT host:port to the sandbox's proxy and prints "<label>: <status line>". */
  const connectPy = (label: string, target: string) =>
    `import socket\ns = socket.create_connection(("127.0.0.1", 3128), timeout=${HANG_GUARD_MS / 1000})\ns.sendall(b"CONNECT ${target} HTTP/1.1\\r\\n\\r\\n")\nprint("${label}:", s.recv(200).split(b"\\r\\n")[0].decode())\n`;

  it("38. with a network allowlist, the named port is reached only through the proxy; others get 403", async () => {
    const before = tcpConnections;
    await withAllowlist([`127.0.0.1:${tcpPort}`], async (run) => {
      const r = await run(
        [
          tryPy("direct", `import socket\nsocket.create_connection(('127.0.0.1', ${tcpPort}), timeout=3)`),
          connectPy("other", `127.0.0.1:${udpPort}`),
          connectPy("proxied", `127.0.0.1:${tcpPort}`),
        ].join(""),
      );
      expect(r.stdout).toMatch(/^direct: BLOCKED ConnectionRefusedError/m);
      expect(r.stdout).toMatch(/^other: HTTP\/1\.1 403 Forbidden$/m);
      expect(r.stdout).toMatch(/^proxied: HTTP\/1\.1 200 Connection Established$/m);
    });
    expect(tcpConnections).toBe(before + 1); // the proxied connection, nothing else
  });

  it("39. a name that resolves to the host's loopback (localhost) is refused even when the rule names it", async () => {
    const before = tcpConnections;
    await withAllowlist([`localhost:${tcpPort}`], async (run) => {
      const r = await run(
        `${connectPy("localhost", `localhost:${tcpPort}`)}${connectPy("decimal", `2130706433:${tcpPort}`)}`,
      );
      expect(r.stdout).toMatch(/^localhost: HTTP\/1\.1 403 Forbidden$/m);
      expect(r.stdout).toMatch(/^decimal: HTTP\/1\.1 403 Forbidden$/m);
    });
    expect(tcpConnections).toBe(before);
  });

  it("40. with a network allowlist, vsock, netlink and packet sockets are still refused", async () => {
    await withAllowlist(["pypi.org"], async (run) => {
      const r = await run(
        [
          tryPy("vsock", "import socket\nsocket.socket(40, socket.SOCK_STREAM)"),
          tryPy("netlink", "import socket\nsocket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)"),
          tryPy("packet", "import socket\nsocket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)"),
        ].join(""),
      );
      for (const k of ["vsock", "netlink", "packet"])
        expect(r.stdout).toMatch(new RegExp(`^${k}: BLOCKED .*Operation not permitted`, "m"));
    });
  });
});
