import { existsSync, statSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer, request } from "node:http";
import { connect, createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NetProxy } from "./proxy.js";
import { parseAllowlist } from "./rules.js";

let web: HttpServer;
let webPort: number;
let echo: Server;
let echoPort: number;
let proxy: NetProxy;

/** One plain-HTTP request through the proxy's Unix socket, as an HTTP_PROXY client sends it. */
function viaProxy(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.socketPath, path: url, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Send CONNECT, then `payload` through the tunnel; everything that comes back until the peer closes. */
function tunnel(authority: string, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(proxy.socketPath);
    let got = "";
    s.setEncoding("utf8");
    s.on("data", (d: string) => {
      got += d;
      if (got.startsWith("HTTP/1.1 200") && got.endsWith("\r\n\r\n")) s.end(payload);
    });
    s.on("end", () => resolve(got));
    s.on("error", reject);
    s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

beforeAll(async () => {
  web = createHttpServer((req, res) => {
    res.setHeader("x-seen-host", req.headers.host ?? "");
    res.setHeader("x-seen-proxy-auth", req.headers["proxy-authorization"] ?? "none");
    res.end(`hello ${req.url}`);
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  webPort = (web.address() as { port: number }).port;
  echo = createServer((s) => {
    s.setEncoding("utf8");
    s.on("data", (d: string) => s.write(`echo:${d}`));
    s.on("end", () => s.end());
  });
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
  echoPort = (echo.address() as { port: number }).port;
  proxy = await NetProxy.start({ rules: parseAllowlist([`127.0.0.1:${webPort}`, `127.0.0.1:${echoPort}`]) });
});

afterAll(async () => {
  await proxy?.close();
  web?.close();
  echo?.close();
});

describe("NetProxy", () => {
  it("listens on a Unix socket in a private directory", () => {
    expect(statSync(proxy.dir).mode & 0o777).toBe(0o700);
    expect(statSync(proxy.socketPath).isSocket()).toBe(true);
  });

  it("forwards an allowed plain-HTTP request, with Host from the URL and no proxy credentials", async () => {
    const r = await viaProxy(`http://127.0.0.1:${webPort}/simple/?q=1`, {
      host: "evil.example",
      "proxy-authorization": "Basic c2VjcmV0",
    });
    expect(r).toEqual({ status: 200, body: "hello /simple/?q=1" });
    const raw = await new Promise<Record<string, unknown>>((resolve) => {
      request(
        { socketPath: proxy.socketPath, path: `http://127.0.0.1:${webPort}/`, headers: { host: "x" } },
        (res) => {
          res.resume();
          resolve(res.headers);
        },
      ).end();
    });
    expect(raw["x-seen-host"]).toBe(`127.0.0.1:${webPort}`);
    expect(raw["x-seen-proxy-auth"]).toBe("none");
  });

  it("refuses another port with 403 and a body naming the host and the flag", async () => {
    const r = await viaProxy("http://127.0.0.1:9/");
    expect(r.status).toBe(403);
    expect(r.body).toMatch(/refused\. 127\.0\.0\.1:9 is not in the sandbox's network allowlist/);
    expect(r.body).toMatch(/--allow-net 127\.0\.0\.1:9/);
  });

  it("answers a request that is not an absolute http:// URL with 400", async () => {
    expect((await viaProxy("/relative")).status).toBe(400);
  });

  it("tunnels CONNECT to an allowed port, bytes both ways", async () => {
    const got = await tunnel(`127.0.0.1:${echoPort}`, "ping");
    expect(got).toBe("HTTP/1.1 200 Connection Established\r\n\r\necho:ping");
  });

  it("refuses CONNECT elsewhere with 403, including names that resolve to loopback", async () => {
    const other = await tunnel("127.0.0.1:22", "x");
    expect(other).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(other).toMatch(/127\.0\.0\.1:22 is not in the sandbox's network allowlist/);
    expect(await tunnel("localhost:22", "x")).toMatch(/^HTTP\/1\.1 403/);
    expect(await tunnel("127.1:22", "x")).toMatch(/^HTTP\/1\.1 403/);
  });

  it("records every decision with host, port, verdict and time", () => {
    const log = proxy.decisions();
    expect(log.length).toBeGreaterThanOrEqual(6);
    const refused = log.filter((d) => !d.allowed).map((d) => `${d.method} ${d.host}:${d.port}`);
    expect(refused).toEqual([
      "GET 127.0.0.1:9",
      "CONNECT 127.0.0.1:22",
      "CONNECT localhost:22",
      "CONNECT 127.0.0.1:22",
    ]);
    const tunnelled = log.find((d) => d.method === "CONNECT" && d.allowed);
    expect(tunnelled).toMatchObject({ host: "127.0.0.1", port: echoPort, address: "127.0.0.1" });
    expect(Date.parse(tunnelled?.time ?? "")).not.toBeNaN();
  });

  it("answers bytes that are not HTTP with 400 and keeps serving", async () => {
    const got = await new Promise<string>((resolve) => {
      const s = connect(proxy.socketPath);
      let text = "";
      s.setEncoding("utf8");
      s.on("data", (d: string) => {
        text += d;
      });
      s.on("close", () => resolve(text));
      s.end("\x16\x03\x01 not http at all\r\n\r\n");
    });
    expect(got).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect((await viaProxy(`http://127.0.0.1:${webPort}/again`)).status).toBe(200);
  });

  it("removes its directory on close", async () => {
    const p = await NetProxy.start({ rules: parseAllowlist(["pypi.org"]) });
    await p.close();
    expect(existsSync(p.dir)).toBe(false);
  });
});
