import { createServer, request, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressProxy, isAllowed, namesAddress, originRule, parseAllowHost } from "./egress.js";
import { insideAddress, plainAddress, resolveEgress } from "./egress-address.js";
import { parseSocksGreeting, parseSocksRequest, socksReply, webSocketUrl } from "./egress-socks.js";

describe("egress allowlist rules", () => {
  const rules = ["127.0.0.1:4000", "*.example.com", "https://api.test", "docs.test"].map(parseAllowHost);

  it("matches host and port exactly, subdomains for wildcards, the web's ports for a bare host", () => {
    expect(isAllowed(rules, "127.0.0.1", 4000)).toBe(true);
    expect(isAllowed(rules, "127.0.0.1", 4001)).toBe(false);
    expect(isAllowed(rules, "localhost", 4000)).toBe(false);
    expect(isAllowed(rules, "a.example.com", 443)).toBe(true);
    expect(isAllowed(rules, "a.example.com", 80)).toBe(true);
    expect(isAllowed(rules, "a.example.com", 6379)).toBe(false);
    expect(isAllowed(rules, "example.com", 443)).toBe(false);
    expect(isAllowed(rules, "evilexample.com", 443)).toBe(false);
    expect(isAllowed(rules, "api.test", 443)).toBe(true);
    expect(isAllowed(rules, "api.test", 80)).toBe(false);
    expect(isAllowed(rules, "DOCS.test", 80)).toBe(true);
    // A bare host is not every service the host runs: 80 and 443 only.
    expect(isAllowed(rules, "docs.test", 8080)).toBe(false);
  });

  it("defaults to the start URL's origin, with the scheme's port", () => {
    expect(originRule("http://127.0.0.1:4000/settings?x=1")).toBe("127.0.0.1:4000");
    expect(originRule("https://app.test/")).toBe("app.test:443");
    expect(() => originRule("file:///etc/passwd")).toThrow(/allowHosts/);
    expect(() => parseAllowHost("")).toThrow(/empty/);
  });

  it("knows when an entry names an address itself (a literal, or localhost for loopback)", () => {
    const named = ["127.0.0.1:4000", "app.test", "localhost:5000", "[::1]:6000"].map(parseAllowHost);
    expect(namesAddress(named, "127.0.0.1", 4000)).toBe(true);
    expect(namesAddress(named, "127.0.0.1", 4001)).toBe(false);
    expect(namesAddress(named, "127.0.0.1", 5000)).toBe(true);
    expect(namesAddress(named, "::1", 6000)).toBe(true);
    expect(namesAddress(named, "10.0.0.5", 80)).toBe(false);
  });
});

describe("egress by address", () => {
  it("sorts addresses into this machine's and its networks', and the outside", () => {
    expect(insideAddress("127.0.0.1")).toBe("a loopback address");
    expect(insideAddress("127.8.9.10")).toBe("a loopback address");
    expect(insideAddress("::1")).toBe("a loopback address");
    expect(insideAddress("::ffff:127.0.0.1")).toBe("a loopback address");
    expect(insideAddress("10.1.2.3")).toBe("a private address");
    expect(insideAddress("172.20.0.1")).toBe("a private address");
    expect(insideAddress("192.168.1.1")).toBe("a private address");
    expect(insideAddress("fd00::1")).toBe("a private address");
    expect(insideAddress("169.254.169.254")).toBe("a link-local address");
    expect(insideAddress("fe80::1")).toBe("a link-local address");
    expect(insideAddress("0.0.0.0")).toBe("an unspecified (this host) address");
    expect(insideAddress("100.64.0.1")).toBe("a shared (carrier-grade NAT) address");
    expect(insideAddress("93.184.216.34")).toBeUndefined();
    expect(insideAddress("2606:2800:220:1::1")).toBeUndefined();
    expect(plainAddress("[::FFFF:10.0.0.1]")).toBe("10.0.0.1");
  });

  it("refuses a name that resolves inside unless the task names that address; connects to what it checked", async () => {
    const lookup = async (host: string) =>
      ({
        "app.test": ["127.0.0.1"],
        "split.test": ["93.184.216.34", "10.0.0.7"],
        "pub.test": ["93.184.216.34"],
      })[host] ?? [];
    const never = () => false;
    expect(await resolveEgress("app.test", never, lookup)).toEqual({
      ok: false,
      reason:
        "app.test resolves to 127.0.0.1, a loopback address; name that address itself in allow_hosts to reach it",
    });
    expect(await resolveEgress("app.test", (a) => a === "127.0.0.1", lookup)).toEqual({
      ok: true,
      address: "127.0.0.1",
    });
    // Every address a name has is judged: the next answer could be the inside one.
    expect((await resolveEgress("split.test", never, lookup)).ok).toBe(false);
    expect(await resolveEgress("pub.test", never, lookup)).toEqual({ ok: true, address: "93.184.216.34" });
    expect(await resolveEgress("nowhere.test", never, lookup)).toEqual({
      ok: false,
      reason: "nowhere.test did not resolve to any address",
    });
    expect((await resolveEgress("127.0.0.1", never, lookup)).ok).toBe(false);
  });
});

describe("the SOCKS5 side (WebSockets)", () => {
  it("parses a greeting and a CONNECT request, by name, IPv4 or IPv6, in pieces", () => {
    expect(parseSocksGreeting(Buffer.from([5]))).toEqual({ need: true });
    expect(parseSocksGreeting(Buffer.from([5, 1, 0, 9]))).toEqual({
      need: false,
      noAuth: true,
      rest: Buffer.from([9]),
    });
    expect(parseSocksGreeting(Buffer.from([5, 1, 2]))).toMatchObject({ noAuth: false });
    const name = Buffer.concat([
      Buffer.from([5, 1, 0, 3, 8]),
      Buffer.from("app.test"),
      Buffer.from([0x1f, 0x90]),
    ]);
    expect(parseSocksRequest(name.subarray(0, 9))).toEqual({ need: true });
    expect(parseSocksRequest(name)).toEqual({
      need: false,
      ok: true,
      host: "app.test",
      port: 8080,
      rest: Buffer.alloc(0),
    });
    expect(parseSocksRequest(Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, 0, 80]))).toMatchObject({
      host: "127.0.0.1",
      port: 80,
    });
    const v6 = Buffer.from([5, 1, 0, 4, ...Array(15).fill(0), 1, 1, 187]);
    expect(parseSocksRequest(v6)).toMatchObject({ host: "0:0:0:0:0:0:0:1", port: 443 });
    expect(parseSocksRequest(Buffer.from([5, 2, 0, 1, 1, 2, 3, 4, 0, 80]))).toEqual({
      need: false,
      ok: false,
      reply: 7,
    });
    expect(socksReply(2)).toEqual(Buffer.from([5, 2, 0, 1, 0, 0, 0, 0, 0, 0]));
  });

  it("names the WebSocket from the tunnel's first bytes: a plain handshake's path, or wss:// when TLS", () => {
    expect(webSocketUrl("127.0.0.1", 4000, Buffer.from("GET /live?room=1 HTTP/1.1\r\nHost: x\r\n"))).toBe(
      "ws://127.0.0.1:4000/live?room=1",
    );
    expect(webSocketUrl("chat.test", 443, Buffer.from([0x16, 3, 1]))).toBe("wss://chat.test:443/");
    expect(webSocketUrl("127.0.0.1", 4000, Buffer.from("GET /li"))).toBeUndefined();
  });
});

describe("the proxy itself", () => {
  let app: Server;
  let port = 0;
  let proxy: EgressProxy;
  const seen: string[] = [];
  const opened: string[] = [];

  beforeAll(async () => {
    app = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end("hello");
    });
    app.on("upgrade", (req, socket) => {
      seen.push(`UPGRADE ${req.url}`);
      socket.end("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
    });
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
    port = (app.address() as AddressInfo).port;
    // "app.test" is a name that resolves to this machine's loopback, as a hostile DNS answer would.
    proxy = await EgressProxy.start({ lookup: async (h) => (h === "app.test" ? ["127.0.0.1"] : []) });
    proxy.onWebSocket = async (open) => {
      opened.push(open.url);
      return open.url.endsWith("/ok");
    };
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((r) => app.close(r));
  });

  /** A plain GET through the proxy; the status and body. */
  const get = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const p = new URL(proxy.url);
      const req = request({
        host: p.hostname,
        port: Number(p.port),
        path: url,
        headers: { host: new URL(url).host },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (d) => {
          body += String(d);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("reaches an allowed literal address; refuses a name that resolves to loopback, even on its allowed port", async () => {
    proxy.setAllowHosts([`127.0.0.1:${port}`]);
    expect(await get(`http://127.0.0.1:${port}/a`)).toEqual({ status: 200, body: "hello" });
    proxy.setAllowHosts([`app.test:${port}`]);
    const refused = await get(`http://app.test:${port}/b`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatch(/app\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(seen).toEqual(["GET /a"]);
    expect(proxy.refusals.map((r) => r.request)).toEqual([`GET http://app.test:${port}/b`]);
  });

  /** A WebSocket handshake through the SOCKS5 side; what came back. */
  const socksWebSocket = (path: string) =>
    new Promise<string>((resolve) => {
      const p = new URL(proxy.url);
      const s = connect(Number(p.port), p.hostname);
      let got = Buffer.alloc(0);
      let stage = 0;
      s.on("data", (d: Buffer) => {
        got = Buffer.concat([got, d]);
        if (stage === 0 && got.length >= 2) {
          stage = 1;
          got = got.subarray(2);
          const host = Buffer.from("127.0.0.1");
          s.write(
            Buffer.concat([
              Buffer.from([5, 1, 0, 3, host.length]),
              host,
              Buffer.from([port >> 8, port & 255]),
            ]),
          );
        }
        if (stage === 1 && got.length >= 10) {
          stage = 2;
          if (got[1] !== 0) return void resolve(`socks refused ${got[1]}`);
          got = got.subarray(10);
          s.write(
            `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
          );
        }
      });
      s.on("close", () => resolve(got.toString("latin1").split("\r\n")[0] ?? ""));
      s.write(Buffer.from([5, 1, 0]));
    });

  it("holds each WebSocket open for the gate: refused ones never reach the server", async () => {
    proxy.setAllowHosts([`127.0.0.1:${port}`]);
    seen.length = 0;
    expect(await socksWebSocket("/delete")).toBe("HTTP/1.1 403 Forbidden");
    expect(await socksWebSocket("/ok")).toBe("HTTP/1.1 101 Switching Protocols");
    expect(opened).toEqual([`ws://127.0.0.1:${port}/delete`, `ws://127.0.0.1:${port}/ok`]);
    expect(seen).toEqual(["UPGRADE /ok"]);
    proxy.setAllowHosts([]);
    expect(await socksWebSocket("/ok")).toBe("socks refused 2");
  });
});
