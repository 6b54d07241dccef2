/**
 * The egress allowlist, enforced below the page: Chromium is started with `--proxy-server` pointing at
 * this loopback proxy (and loopback NOT bypassed), so every request the browser process makes — page
 * loads, each hop of a redirect, fetch/XHR, workers, popups, WebSockets — arrives here and is either
 * forwarded or refused and recorded. Playwright's `route` is not a boundary: it sees only the first URL
 * of a redirect chain (measured here: a 302 to a refused port went through).
 */
import { chmodSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect, type Socket } from "node:net";

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
  /** undefined: any port. */
  port: number | undefined;
}

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
  return rules.some(
    (r) =>
      (r.port === undefined || r.port === port) && (r.wildcard ? h.endsWith(`.${r.host}`) : h === r.host),
  );
}

/**
 * A running allowlist proxy: on 127.0.0.1, where `url` goes into Chromium's `--proxy-server`; or on a
 * Unix socket (`url` is then `unix:PATH`) that a boxed browser reaches through the box's relay.
 */
export class EgressProxy {
  readonly refusals: EgressRefusal[] = [];
  private rules: Rule[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(listen: { socketPath?: string } = {}): Promise<EgressProxy> {
    const server = createServer();
    const { socketPath } = listen;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      if (socketPath !== undefined) server.listen(socketPath, () => resolve());
      else server.listen(0, "127.0.0.1", () => resolve());
    });
    if (socketPath !== undefined) {
      // The box's uid connects; the directory (0700, that uid's) is what keeps everyone else out.
      chmodSync(socketPath, 0o666);
      const proxy = new EgressProxy(server, `unix:${socketPath}`);
      proxy.wire();
      return proxy;
    }
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("egress proxy: no TCP address");
    const proxy = new EgressProxy(server, `http://127.0.0.1:${address.port}`);
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

  private wire(): void {
    this.server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.once("close", () => this.sockets.delete(s));
    });
    // Plain http:// through a proxy: the request line carries the absolute URL.
    this.server.on("request", (req, res) => {
      const target = absoluteUrl(req);
      if (!target) {
        res.writeHead(400, { "content-type": "text/plain" }).end("egress proxy: expected an absolute URL\n");
        return;
      }
      const port = Number(target.port || 80);
      if (!isAllowed(this.rules, target.hostname, port)) {
        this.refuse(`${req.method} ${target.href}`, target.hostname, port);
        res
          .writeHead(403, { "content-type": "text/plain", connection: "close" })
          .end(`Blocked by the egress allowlist: ${target.host} is not an allowed host.\n`);
        return;
      }
      const headers = { ...req.headers };
      delete headers["proxy-connection"];
      const upstream = httpRequest(
        {
          host: stripBrackets(target.hostname),
          port,
          method: req.method,
          path: target.pathname + target.search,
          headers,
        },
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
    // https:// and WebSocket tunnels: only host:port is visible, which is all the allowlist needs.
    this.server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
      const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? "");
      const host = m?.[1] ?? "";
      const port = Number(m?.[2] ?? 0);
      this.sockets.add(client);
      client.on("error", () => client.destroy());
      if (!m || !isAllowed(this.rules, host, port)) {
        this.refuse(`CONNECT ${req.url ?? ""}`, host, port);
        client.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
        return;
      }
      const upstream = connect(port, stripBrackets(host), () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      this.sockets.add(upstream);
      upstream.on("error", () => {
        client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
      });
      upstream.once("close", () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
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
