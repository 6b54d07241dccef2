/**
 * The egress allowlist, enforced below the page: Chromium is started with `--proxy-server` pointing at
 * this loopback proxy (and loopback NOT bypassed), so every request the browser process makes — page
 * loads, each hop of a redirect, fetch/XHR, workers, popups, WebSockets — arrives here and is either
 * forwarded or refused and recorded. Playwright's `route` is not a boundary: it sees only the first URL
 * of a redirect chain (measured here: a 302 to a refused port went through).
 *
 * By name and by address: an entry without a port allows 80 and 443 only, and every host is resolved
 * here and connected to by the address checked (./egress-address.ts) — a name that resolves to this
 * machine or its networks is refused unless the task names that address. One socket speaks HTTP proxy
 * (plain requests and CONNECT) and SOCKS5, which Chromium uses for WebSockets only; each WebSocket open
 * is held for the consequence gate (`onWebSocket`) before anything reaches the server.
 */
import { chmodSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import { connect, createServer as createTcpServer, type Server, type Socket } from "node:net";
import {
  type EgressAddress,
  insideAddress,
  type Lookup,
  resolveEgress,
  systemLookup,
} from "./egress-address.js";
import { serveSocks } from "./egress-socks.js";

export interface EgressRefusal {
  /** ISO time of the refusal. */
  at: string;
  /** "GET http://host:port/path" or "CONNECT host:port". */
  request: string;
  host: string;
  port: number;
}

interface Rule {
  /** Lower-case host, or a suffix after "*." for wildcard rules. */
  host: string;
  wildcard: boolean;
  /** undefined: the web's ports, 80 and 443. */
  port: number | undefined;
}

/** The ports an entry without one allows: the web's, not every service the host runs. */
const WEB_PORTS: ReadonlySet<number> = new Set([80, 443]);

/** Refusals kept per environment; a page that retries forever must not grow memory without bound. */
const MAX_REFUSALS = 1000;

/** Parse "host", "host:port", "*.example.com" or a full origin "http://host:port". */
export function parseAllowHost(entry: string): Rule {
  const text = entry.trim().toLowerCase();
  if (text === "") throw new Error('allowHosts: empty entry — give "host", "host:port" or an origin');
  if (text.includes("://")) {
    const url = new URL(text);
    return {
      host: stripBrackets(url.hostname),
      wildcard: false,
      port: Number(url.port || defaultPort(url.protocol)),
    };
  }
  const wildcard = text.startsWith("*.");
  const rest = wildcard ? text.slice(2) : text;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(rest);
  if (!m?.[1]) throw new Error(`allowHosts: "${entry}" is not "host", "host:port", "*.domain" or an origin`);
  return { host: stripBrackets(m[1]), wildcard, port: m[2] ? Number(m[2]) : undefined };
}

/** The default allowlist: exactly the start URL's origin (scheme's default port when none is given). */
export function originRule(url: string): string {
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new Error(
      `start url "${url}": only http(s) pages have an origin to allow — pass allowHosts explicitly`,
    );
  }
  return `${u.hostname}:${u.port || defaultPort(u.protocol)}`;
}

export function isAllowed(rules: readonly Rule[], host: string, port: number): boolean {
  const h = stripBrackets(host.toLowerCase());
  return rules.some((r) => portMatches(r, port) && (r.wildcard ? h.endsWith(`.${r.host}`) : h === r.host));
}

/**
 * Whether an entry names `address` itself (an address literal, or `localhost` for a loopback address)
 * on `port`: what lets a connection reach an inside address (./egress-address.ts).
 */
export function namesAddress(rules: readonly Rule[], address: string, port: number): boolean {
  const a = stripBrackets(address.toLowerCase());
  const loopback = insideAddress(a) === "a loopback address";
  return rules.some(
    (r) => !r.wildcard && portMatches(r, port) && (r.host === a || (r.host === "localhost" && loopback)),
  );
}

function portMatches(rule: Rule, port: number): boolean {
  return rule.port === undefined ? WEB_PORTS.has(port) : rule.port === port;
}

/** A WebSocket open the proxy holds: its URL (`wss://host:port/` when the path is inside TLS). */
export interface WebSocketOpen {
  url: string;
  host: string;
  port: number;
}

/**
 * A running allowlist proxy: on 127.0.0.1, where `url` goes into Chromium's `--proxy-server`; or on a
 * Unix socket (`url` is then `unix:PATH`) that a boxed browser reaches through the box's relay.
 */
export class EgressProxy {
  readonly refusals: EgressRefusal[] = [];
  /**
   * Asked before a WebSocket opens (the consequence gate); without it every WebSocket is refused,
   * since a WebSocket can change state on its server.
   */
  onWebSocket: ((open: WebSocketOpen) => Promise<boolean>) | undefined;
  private rules: Rule[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly http = createServer();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly lookup: Lookup,
  ) {}

  /** `lookup` resolves host names (the system's resolver; a test passes its own). */
  static async start(listen: { socketPath?: string; lookup?: Lookup } = {}): Promise<EgressProxy> {
    const server = createTcpServer();
    const { socketPath } = listen;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      if (socketPath !== undefined) server.listen(socketPath, () => resolve());
      else server.listen(0, "127.0.0.1", () => resolve());
    });
    let url: string;
    if (socketPath !== undefined) {
      // The box's uid connects; the directory (0700, that uid's) is what keeps everyone else out.
      chmodSync(socketPath, 0o666);
      url = `unix:${socketPath}`;
    } else {
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("egress proxy: no TCP address");
      url = `http://127.0.0.1:${address.port}`;
    }
    const proxy = new EgressProxy(server, url, listen.lookup ?? systemLookup);
    proxy.wire();
    return proxy;
  }

  /** Replace the allowlist (each reset) and forget the last episode's refusals. */
  setAllowHosts(entries: readonly string[]): void {
    this.rules = entries.map(parseAllowHost);
    this.refusals.length = 0;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private refuse(request: string, host: string, port: number): void {
    if (this.refusals.length < MAX_REFUSALS)
      this.refusals.push({ at: new Date().toISOString(), request, host, port });
  }

  /** Where `host:port` may be reached: allowed by name, then by the address it resolves to. */
  private async destination(host: string, port: number): Promise<EgressAddress> {
    if (!isAllowed(this.rules, host, port))
      return { ok: false, reason: `${host}:${port} is not an allowed host and port` };
    return resolveEgress(host, (a) => namesAddress(this.rules, a, port), this.lookup);
  }

  private wire(): void {
    // One socket, two protocols: SOCKS5 starts with byte 5, an HTTP request with a letter.
    this.server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.once("close", () => this.sockets.delete(s));
      s.on("error", () => s.destroy());
      s.once("data", (first: Buffer) => {
        if (first[0] === 5)
          return serveSocks(s, first, {
            destination: (host, port) => this.destination(host, port),
            refuse: (host, port) => this.refuse(`WEBSOCKET ${host}:${port}`, host, port),
            ask: (open) => (this.onWebSocket ?? (async () => false))(open),
            tunnel: (address, port, head) => this.tunnel(s, address, port, head, () => undefined),
          });
        s.pause();
        s.unshift(first);
        this.http.emit("connection", s);
        s.resume();
      });
    });
    // Plain http:// through a proxy: the request line carries the absolute URL.
    this.http.on("request", (req, res) => {
      const target = absoluteUrl(req);
      if (!target) {
        res.writeHead(400, { "content-type": "text/plain" }).end("egress proxy: expected an absolute URL\n");
        return;
      }
      const port = Number(target.port || 80);
      void this.destination(target.hostname, port).then((dest) => {
        if (!dest.ok) {
          this.refuse(`${req.method} ${target.href}`, target.hostname, port);
          res
            .writeHead(403, { "content-type": "text/plain", connection: "close" })
            .end(`Blocked by the egress allowlist: ${dest.reason}.\n`);
          return;
        }
        const headers = { ...req.headers };
        delete headers["proxy-connection"];
        const upstream = httpRequest(
          { host: dest.address, port, method: req.method, path: target.pathname + target.search, headers },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.rawHeaders);
            up.pipe(res);
          },
        );
        upstream.on("error", (err) => {
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
          res.end(`egress proxy: ${target.host} unreachable: ${err.message}\n`);
        });
        req.pipe(upstream);
      });
    });
    // https:// tunnels: only host:port is visible, which is all the allowlist needs.
    this.http.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
      const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? "");
      const host = stripBrackets(m?.[1] ?? "");
      const port = Number(m?.[2] ?? 0);
      this.sockets.add(client);
      client.on("error", () => client.destroy());
      void (m ? this.destination(host, port) : Promise.resolve({ ok: false } as EgressAddress)).then(
        (dest) => {
          if (!dest.ok) {
            this.refuse(`CONNECT ${req.url ?? ""}`, host, port);
            client.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
            return;
          }
          this.tunnel(client, dest.address, port, head, () =>
            client.write("HTTP/1.1 200 Connection Established\r\n\r\n"),
          );
        },
      );
    });
  }

  /** Connect to `address:port`, then `ready()` and pipe both ways with `head` sent first. */
  private tunnel(client: Socket, address: string, port: number, head: Buffer, ready: () => void): void {
    const upstream = connect(port, address, () => {
      ready();
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.sockets.add(upstream);
    upstream.on("error", () => client.destroy());
    upstream.once("close", () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
  }
}

function absoluteUrl(req: IncomingMessage): URL | undefined {
  try {
    const u = new URL(req.url ?? "");
    return u.protocol === "http:" ? u : undefined;
  } catch {
    return undefined;
  }
}

function defaultPort(protocol: string): number {
  return protocol === "https:" || protocol === "wss:" ? 443 : 80;
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
