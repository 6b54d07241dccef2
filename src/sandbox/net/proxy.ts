import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { decide, hostLookup, type Lookup, type NetDecision, type Verdict } from "./policy.js";
import type { AllowRule } from "./rules.js";

/** Name of the proxy's socket inside its directory (the directory is what the sandbox mounts). */
export const PROXY_SOCKET = "proxy.sock";
/**
 * Decisions kept per sandbox: a package install makes tens, a crawler thousands; past this the log
 * keeps counting in `dropped` instead of growing without bound in the harness's memory.
 */
export const MAX_DECISIONS = 10_000;

/** Headers that belong to one hop (RFC 9110 §7.6.1) and to the proxy itself: never forwarded. */
const HOP_HEADERS = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase());
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers))
    if (!HOP_HEADERS.has(k) && !named.includes(k) && v !== undefined) out[k] = v;
  return out;
}

/** "host:port" or "[v6]:port" of a CONNECT line; the host canonical as a URL parser makes it. */
function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!m?.[1] || !m[2]) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535 || !URL.canParse(`http://${m[1]}/`)) return undefined;
  return { host: new URL(`http://${m[1]}/`).hostname.replace(/^\[|\]$/g, ""), port };
}

const refusalBody = (v: Extract<Verdict, { allowed: false }>) =>
  `acilab sandbox proxy: refused. ${v.message}\n`;

export interface NetProxyOptions {
  rules: readonly AllowRule[];
  /** Host uid/gid of the sandbox user, who must be able to connect (when acilab runs as root). */
  owner?: { uid: number; gid: number };
  lookup?: Lookup;
}

/**
 * The sandbox's only way out: an HTTP proxy on a Unix socket in a private host directory, which the
 * sandbox mounts. It tunnels `CONNECT host:port` (HTTPS) and forwards absolute-URI plain-HTTP requests,
 * each checked against the allowlist on its own (redirects and keep-alive connections included), and
 * answers the rest with 403 and a body that says which host was refused and the flag that allows it.
 */
export class NetProxy {
  /** Host directory holding the socket: bind this into the sandbox. */
  readonly dir: string;
  readonly socketPath: string;
  private readonly server: Server;
  private readonly rules: readonly AllowRule[];
  private readonly lookup: Lookup;
  private readonly log: NetDecision[] = [];
  private readonly tunnels = new Set<Duplex>();
  private droppedDecisions = 0;

  private constructor(options: NetProxyOptions, dir: string) {
    this.rules = options.rules;
    this.lookup = options.lookup ?? hostLookup;
    this.dir = dir;
    this.socketPath = join(dir, PROXY_SOCKET);
    this.server = createServer();
    this.server.on("connect", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.tunnel(req, socket, head);
    });
    this.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      void this.forward(req, res);
    });
    // Bytes that are not HTTP: answer once if the socket can still take it, then drop it.
    this.server.on("clientError", (_err, socket: Duplex) => {
      if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      else socket.destroy();
    });
  }

  /** Create the directory (0700, the sandbox user's) and listen on its socket. */
  static async start(options: NetProxyOptions): Promise<NetProxy> {
    const dir = mkdtempSync(join(tmpdir(), "acilab-net-"));
    const proxy = new NetProxy(options, dir);
    try {
      await new Promise<void>((resolve, reject) => {
        proxy.server.once("error", reject);
        proxy.server.listen(proxy.socketPath, () => resolve());
      });
      // The directory keeps everyone but the sandbox user out; the socket itself need not.
      chmodSync(proxy.socketPath, 0o666);
      if (options.owner) chownSync(dir, options.owner.uid, options.owner.gid);
      return proxy;
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`sandbox: could not start the network proxy in ${dir}: ${(err as Error).message}`);
    }
  }

  /** Every decision so far, oldest first. */
  decisions(): NetDecision[] {
    return [...this.log];
  }

  /** Decisions not kept because the log reached MAX_DECISIONS. */
  get dropped(): number {
    return this.droppedDecisions;
  }

  async close(): Promise<void> {
    for (const s of this.tunnels) s.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async check(method: string, host: string, port: number): Promise<Verdict> {
    const verdict = await decide(this.rules, host, port, this.lookup);
    const entry: NetDecision = {
      time: new Date().toISOString(),
      method,
      host,
      port,
      allowed: verdict.allowed,
      reason: verdict.allowed ? `rule ${verdict.rule.source}` : verdict.reason,
      ...(verdict.allowed ? { address: verdict.address } : {}),
    };
    if (this.log.length < MAX_DECISIONS) this.log.push(entry);
    else this.droppedDecisions++;
    return verdict;
  }

  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.tunnels.add(client);
    client.on("error", () => {});
    client.on("close", () => this.tunnels.delete(client));
    const target = splitAuthority(req.url ?? "");
    if (!target) {
      client.end(rawResponse(400, `CONNECT needs host:port, got "${req.url}"\n`));
      return;
    }
    const verdict = await this.check("CONNECT", target.host, target.port);
    if (!verdict.allowed) {
      client.end(rawResponse(verdict.status, refusalBody(verdict)));
      return;
    }
    if (client.destroyed) return; // gone while the name resolved
    const upstream: Socket = connect({ host: verdict.address, port: target.port });
    this.tunnels.add(upstream);
    let open = false;
    upstream.on("connect", () => {
      open = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", (err) => {
      if (open) client.destroy();
      else
        client.end(rawResponse(502, `acilab sandbox proxy: ${target.host}:${target.port}: ${err.message}\n`));
    });
    upstream.on("close", () => this.tunnels.delete(upstream));
    // The client is gone: nothing can read what the server still sends.
    client.on("close", () => upstream.destroy());
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: string) => {
      res.writeHead(status, {
        "content-type": "text/plain; charset=utf-8",
        "content-length": Buffer.byteLength(body),
      });
      res.end(body);
    };
    const url = URL.canParse(req.url ?? "") ? new URL(req.url ?? "") : undefined;
    if (url?.protocol !== "http:") {
      reply(
        400,
        "acilab sandbox proxy: send absolute http:// URLs here (set HTTP_PROXY), and https:// through CONNECT (HTTPS_PROXY)\n",
      );
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = url.port === "" ? 80 : Number(url.port);
    const verdict = await this.check(req.method ?? "GET", host, port);
    if (!verdict.allowed) {
      reply(verdict.status, refusalBody(verdict));
      return;
    }
    // The request goes to the checked address; Host names what the URL named, whatever the client sent.
    const upstream = httpRequest({
      host: verdict.address,
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: { ...endToEnd(req.headers), host: url.host },
      agent: false,
    });
    upstream.on("response", (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEnd(up.headers));
      up.pipe(res);
    });
    upstream.on("error", (err) => {
      if (res.headersSent) res.destroy();
      else reply(502, `acilab sandbox proxy: ${url.host}: ${err.message}\n`);
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }
}

function rawResponse(status: number, body: string): string {
  const text = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway" }[status] ?? "Error";
  return `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
