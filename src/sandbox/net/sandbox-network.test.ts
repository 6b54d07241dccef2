/**
 * The network allowlist end to end: real bwrap sandboxes, a real HTTP server and a raw TCP echo
 * server on the host's 127.0.0.1, Python inside. The sandbox's NO_PROXY would send 127.0.0.1 straight
 * to its own loopback, so these execs narrow it to "localhost": the host's 127.0.0.1 then stands in
 * for a mirror that is reachable only through the proxy.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { needing, unless } from "../../testing/needs.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { probeBwrap } from "../bwrap/detect.js";
import { BwrapSandbox } from "../bwrap/sandbox.js";
import { openSandbox } from "../open.js";
import { PROXY_MOUNT } from "./forwarder.js";
import { PROXY_SOCKET } from "./proxy.js";
import { SandboxNetwork } from "./sandbox-network.js";

const probe = await probeBwrap();
if (!probe.ok) console.warn(`skipping the network allowlist tests: ${probe.reason}`);

const ENV = { NO_PROXY: "localhost", no_proxy: "localhost" };
let ws: string;
let web: HttpServer;
let webPort: number;
let echo: Server;
let echoPort: number;
let echoConnections = 0;
let refusedPort: number;
/** An HTTPS server with a self-signed certificate (ca.pem in the workspace), when openssl exists. */
let tls: { server: HttpServer; port: number } | undefined;
let sandbox: BwrapSandbox;

/** Socket timeouts inside the sandboxed programs: a hang guard, below the exec's so the program reports it. */
const PROGRAM_GUARD_S = HANG_GUARD_MS / 2000;

function py(code: string, s: BwrapSandbox = sandbox) {
  return s.exec({ argv: ["/usr/bin/python3", "-c", code], env: ENV, timeoutMs: HANG_GUARD_MS });
}

/** Python: fetch `url` with urllib (which reads HTTP_PROXY) and print "<status> <body>". */
const fetchPy = (url: string) => `import urllib.request, urllib.error
try:
    r = urllib.request.urlopen("${url}", timeout=${PROGRAM_GUARD_S})
    print(r.status, r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode())`;

/** Python: CONNECT through the proxy by hand, send "ping", print the status line and the echo. */
const connectPy = (port: number) => `import os, socket
s = socket.create_connection(("127.0.0.1", int(os.environ["HTTPS_PROXY"].rsplit(":", 1)[1])), timeout=${PROGRAM_GUARD_S})
s.sendall(b"CONNECT 127.0.0.1:${port} HTTP/1.1\\r\\nHost: 127.0.0.1:${port}\\r\\n\\r\\n")
head = b""
while b"\\r\\n\\r\\n" not in head:
    chunk = s.recv(4096)
    if not chunk:
        break
    head += chunk
print(head.split(b"\\r\\n")[0].decode())
if head.startswith(b"HTTP/1.1 200"):
    s.sendall(b"ping")
    print(s.recv(100).decode())`;

needing("bwrap", unless(probe)).describe("network allowlist (bwrap + proxy)", () => {
  beforeAll(async () => {
    ws = mkdtempSync(join(tmpdir(), "acilab-net-ws-"));
    web = createHttpServer((req, res) => {
      if (req.url === "/redirect") {
        res.writeHead(302, { location: `http://127.0.0.1:${refusedPort}/stolen` });
        res.end();
      } else res.end(`mirror says hi at ${req.url}`);
    });
    await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
    webPort = (web.address() as { port: number }).port;
    echo = createServer((s) => {
      echoConnections++;
      s.on("data", (d) => s.write(`echo:${d}`));
      s.on("error", () => {});
    });
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
    echoPort = (echo.address() as { port: number }).port;
    refusedPort = echoPort === 65535 ? 65534 : echoPort + 1; // no rule names it; nothing need listen
    tls = await startTls(ws);
    sandbox = new BwrapSandbox({
      workspace: ws,
      network: {
        allow: [`127.0.0.1:${webPort}`, `127.0.0.1:${echoPort}`, ...(tls ? [`127.0.0.1:${tls.port}`] : [])],
      },
    });
  });

  afterAll(async () => {
    await sandbox?.close();
    web?.close();
    echo?.close();
    tls?.server.close();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });

  it("fetches an allowed URL through HTTP_PROXY and refuses another port with 403 and how to allow it", async () => {
    const r = await py(
      `${fetchPy(`http://127.0.0.1:${webPort}/simple/`)}\n${fetchPy(`http://127.0.0.1:${refusedPort}/`)}`,
    );
    expect(r.stdout).toMatch(/^200 mirror says hi at \/simple\/$/m);
    expect(r.stdout).toMatch(
      new RegExp(
        `^403 acilab sandbox proxy: refused\\. 127\\.0\\.0\\.1:${refusedPort} is not in the sandbox's network allowlist .*--allow-net 127\\.0\\.0\\.1:${refusedPort}\\.$`,
        "m",
      ),
    );
  });

  it("refuses a redirect from the allowed server to a host the rules do not name", async () => {
    const r = await py(fetchPy(`http://127.0.0.1:${webPort}/redirect`));
    expect(r.stdout).toMatch(new RegExp(`^403 .*127\\.0\\.0\\.1:${refusedPort} is not in`, "m"));
  });

  it("tunnels CONNECT to an allowed port both ways, and refuses CONNECT elsewhere", async () => {
    const before = echoConnections;
    const ok = await py(connectPy(echoPort));
    expect(ok.stdout).toBe("HTTP/1.1 200 Connection Established\necho:ping\n");
    const no = await py(connectPy(refusedPort));
    expect(no.stdout).toBe("HTTP/1.1 403 Forbidden\n");
    expect(echoConnections).toBe(before + 1);
  });

  it("carries HTTPS end to end through CONNECT: the program verifies the server's own certificate", async (ctx) => {
    if (!tls) ctx.skip();
    const r = await py(`import ssl, urllib.request
ctx = ssl.create_default_context(cafile="/workspace/ca.pem")
print(urllib.request.urlopen("https://127.0.0.1:${tls?.port}/pkg", context=ctx, timeout=${PROGRAM_GUARD_S}).read().decode())`);
    expect(r.stdout).toBe("tls ok /pkg\n");
    expect(sandbox.networkLog().at(-1)).toMatchObject({ method: "CONNECT", port: tls?.port, allowed: true });
  });

  it("cannot reach the host's 127.0.0.1 directly: inet sockets only reach the sandbox's own loopback", async () => {
    const before = echoConnections;
    const r = await py(`import socket
try:
    socket.create_connection(("127.0.0.1", ${echoPort}), timeout=3)
    print("ESCAPED")
except OSError as e:
    print("BLOCKED", type(e).__name__)`);
    expect(r.stdout).toBe("BLOCKED ConnectionRefusedError\n");
    expect(echoConnections).toBe(before);
  });

  it("keeps the command's exit status, signals, stdin, output and fds 3 and 4", async () => {
    const code = await sandbox.exec({ argv: ["bash", "-c", "exit 7"], timeoutMs: HANG_GUARD_MS });
    expect(code.exitCode).toBe(7);
    const killed = await sandbox.exec({ argv: ["bash", "-c", "kill -TERM $$"], timeoutMs: HANG_GUARD_MS });
    expect(killed.exitCode).toBe(128 + 15); // what bwrap reports for a signal, as without the relay
    const io = await sandbox.exec({
      argv: [
        "bash",
        "-c",
        'read -r line; echo "got $line"; echo err >&2; sleep 0.1 & wait; yes | head -1; echo $PIPESTATUS',
      ],
      stdin: "hello\n",
      timeoutMs: HANG_GUARD_MS,
    });
    expect(io.stdout).toBe("got hello\ny\n141\n"); // `yes` died of SIGPIPE: the relay restored it
    expect(io.stderr).toBe("err\n");
    let fromProgram = "";
    const ch = await sandbox.exec({
      argv: ["bash", "-c", 'echo to-host >&3; read -r reply <&4; echo "reply=$reply"'],
      timeoutMs: HANG_GUARD_MS,
      channel: {
        open({ fromProgram: from, toProgram: to }) {
          from.on("data", (d: Buffer) => {
            fromProgram += d.toString();
          });
          to.write("from-host\n");
        },
      },
    });
    expect(ch.stdout).toBe("reply=from-host\n");
    expect(fromProgram).toBe("to-host\n");
    const missing = await sandbox.exec({ argv: ["no-such-command"], timeoutMs: HANG_GUARD_MS });
    expect(missing.stderr).toBe("bwrap: execvp no-such-command: No such file or directory\n");
  });

  it("records every decision, allowed and refused, with host, port and time", () => {
    const log = sandbox.networkLog();
    const seen = log
      .filter((d) => d.port !== tls?.port)
      .map((d) => `${d.method} ${d.host}:${d.port} ${d.allowed ? "allowed" : "refused"}`);
    expect(seen).toEqual([
      `GET 127.0.0.1:${webPort} allowed`,
      `GET 127.0.0.1:${refusedPort} refused`,
      `GET 127.0.0.1:${webPort} allowed`,
      `GET 127.0.0.1:${refusedPort} refused`,
      `CONNECT 127.0.0.1:${echoPort} allowed`,
      `CONNECT 127.0.0.1:${refusedPort} refused`,
    ]);
    for (const d of log) expect(Date.parse(d.time)).not.toBeNaN();
  });

  it('with network "none" there is no proxy socket, no proxy variable, and inet sockets fail', async () => {
    const none = new BwrapSandbox({ workspace: ws });
    try {
      const r = await py(
        `import os, socket
print(os.path.exists("${PROXY_MOUNT}"), os.environ.get("HTTP_PROXY"))
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
except OSError as e:
    print("BLOCKED", e.strerror)`,
        none,
      );
      expect(r.stdout).toBe("False None\nBLOCKED Operation not permitted\n");
      expect(none.networkLog()).toEqual([]);
    } finally {
      await none.close();
    }
  });

  it('with network "loopback" a server on the sandbox\'s own 127.0.0.1 answers, and nothing past it does', async () => {
    const lo = new BwrapSandbox({ workspace: ws, network: "loopback" });
    const before = echoConnections;
    try {
      const r = await py(
        `import os, socket, threading
print(os.path.exists("${PROXY_MOUNT}"), os.environ.get("HTTP_PROXY"))
srv = socket.socket(); srv.bind(("0.0.0.0", 0)); srv.listen(1)
port = srv.getsockname()[1]
threading.Thread(target=lambda: srv.accept()[0].sendall(b"hi"), daemon=True).start()
print(socket.create_connection(("127.0.0.1", port), timeout=${PROGRAM_GUARD_S}).recv(2).decode())
for host, p in (("127.0.0.1", ${echoPort}), ("1.1.1.1", 53)):
    try:
        socket.create_connection((host, p), timeout=3); print("REACHED", host)
    except OSError as e:
        print("BLOCKED", host)`,
        lo,
      );
      expect(r.stdout).toBe("False None\nhi\nBLOCKED 127.0.0.1\nBLOCKED 1.1.1.1\n");
      expect(echoConnections).toBe(before);
    } finally {
      await lo.close();
    }
  });

  it("refuses bad rules up front, and an allowlist on the process backend", async () => {
    expect(
      () => new BwrapSandbox({ workspace: ws, network: { allow: ["https://pypi.org/simple"] } }),
    ).toThrow(/rule "https:\/\/pypi\.org\/simple" is a URL — give the host only/);
    await expect(
      openSandbox({ workspace: ws, backend: "process", network: { allow: ["pypi.org"] } }),
    ).rejects.toThrow(/process backend cannot enforce a network allowlist/);
  });

  it("starts the proxy on first use and removes its socket directory on close", async () => {
    const net = new SandboxNetwork({ allow: ["pypi.org"] });
    expect(net.enabled).toBe(true);
    const dir = await net.dir();
    expect(dir && existsSync(join(dir, PROXY_SOCKET))).toBe(true);
    expect(await net.dir()).toBe(dir); // one proxy per sandbox
    await net.close();
    expect(existsSync(dir as string)).toBe(false);
    expect(await new SandboxNetwork("none").dir()).toBeUndefined();
  });
});

async function startTls(dir: string): Promise<{ server: HttpServer; port: number } | undefined> {
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"]
        .concat(["-keyout", join(dir, "key.pem"), "-out", join(dir, "ca.pem"), "-subj", "/CN=127.0.0.1"])
        .concat(["-addext", "subjectAltName=IP:127.0.0.1"]),
      { stdio: "ignore" },
    );
  } catch {
    console.warn("openssl not available: skipping the HTTPS case");
    return undefined;
  }
  const server = createHttpsServer(
    { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "ca.pem")) },
    (req, res) => res.end(`tls ok ${req.url}`),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as { port: number }).port };
}
