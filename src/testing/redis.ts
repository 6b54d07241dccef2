/**
 * A real redis-server for a test: on a free loopback port, in its own folder, started and stopped by
 * the test (never a mock). `restart` keeps the port and the folder, so with `persist` the data
 * survives as it would on a server restarted in production; `tls` serves TLS with a fresh
 * self-signed certificate (openssl) and a password.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANG_GUARD_MS } from "./time.js";

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  /** The CA file a TLS client must trust (NODE_EXTRA_CA_CERTS), with `tls`. */
  caFile?: string;
  /** The password it wants, with `tls`. */
  password?: string;
  /** Stops it (SIGTERM: an append-only file is flushed) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const PASSWORD = "test-only-password";

export async function startRedis(options: { persist?: boolean; tls?: boolean } = {}): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "acilab-redis-"));
  const port = await freePort();
  let caFile: string | undefined;
  const args = ["--bind", "127.0.0.1", "--dir", dir, "--save", "", "--protected-mode", "yes"];
  if (options.persist) args.push("--appendonly", "yes", "--appendfsync", "always");
  else args.push("--appendonly", "no");
  if (options.tls) {
    const key = join(dir, "key.pem");
    caFile = join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        caFile,
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    args.push("--port", "0", "--tls-port", String(port), "--tls-cert-file", caFile, "--tls-key-file", key);
    args.push("--tls-ca-cert-file", caFile, "--tls-auth-clients", "no", "--requirepass", PASSWORD);
  } else args.push("--port", String(port));

  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
      child = c;
      let seen = "";
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start:\n${seen}`)),
        HANG_GUARD_MS,
      );
      c.stdout?.on("data", (d: Buffer) => {
        seen += d.toString();
        if (seen.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.once("error", (e) => {
        clearTimeout(timer);
        reject(new Error(`redis-server cannot start (${e.message}) — apt-get install redis-server`));
      });
      c.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${seen}`));
      });
    });
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await exited;
  };
  await start();
  const url = options.tls ? `rediss://:${PASSWORD}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`;
  return {
    url,
    port,
    dir,
    ...(caFile ? { caFile, password: PASSWORD } : {}),
    restart: async () => {
      await stop();
      await start();
    },
    stop: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
