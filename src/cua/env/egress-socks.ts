/**
 * The egress proxy's SOCKS5 side, which Chromium uses for WebSockets and nothing else: given
 * `--proxy-server=http=P;https=P;socks=socks5://P`, it sends ws:// and wss:// through the SOCKS proxy
 * (RFC 6455 §4.1's advice, which Chromium follows) and every other request through the HTTP one
 * (measured here: two WebSockets came as SOCKS5 greetings, an https fetch as CONNECT). So every
 * WebSocket open of every page, frame and worker arrives here, where the consequence gate can hold it.
 * A plain ws:// handshake is read for its path; a wss:// one is TLS, whose path stays unseen.
 */

import type { Socket } from "node:net";
import type { EgressAddress } from "./egress-address.js";

/** What a SOCKS5 client sends first: its version and the authentication methods it offers. */
export type SocksGreeting = { need: true } | { need: false; noAuth: boolean; rest: Buffer };

export function parseSocksGreeting(buf: Buffer): SocksGreeting {
  if (buf.length < 2) return { need: true };
  const n = buf[1] as number;
  if (buf.length < 2 + n) return { need: true };
  const methods = [...buf.subarray(2, 2 + n)];
  return { need: false, noAuth: methods.includes(0), rest: buf.subarray(2 + n) };
}

/** A SOCKS5 request: CONNECT to a host (name or address) and port; anything else is refused. */
export type SocksRequest =
  | { need: true }
  | { need: false; ok: false; reply: number }
  | { need: false; ok: true; host: string; port: number; rest: Buffer };

/** SOCKS5 reply codes. */
export const SOCKS = { ok: 0, notAllowed: 2, unreachable: 4, badCommand: 7, badAddress: 8 } as const;

export function parseSocksRequest(buf: Buffer): SocksRequest {
  if (buf.length < 5) return { need: true };
  if (buf[0] !== 5) return { need: false, ok: false, reply: SOCKS.badCommand };
  const cmd = buf[1];
  const atyp = buf[3];
  let host: string;
  let end: number;
  if (atyp === 1) {
    end = 4 + 4;
    if (buf.length < end + 2) return { need: true };
    host = [...buf.subarray(4, end)].join(".");
  } else if (atyp === 3) {
    const len = buf[4] as number;
    end = 5 + len;
    if (buf.length < end + 2) return { need: true };
    host = buf.subarray(5, end).toString("latin1");
  } else if (atyp === 4) {
    end = 4 + 16;
    if (buf.length < end + 2) return { need: true };
    const parts: string[] = [];
    for (let i = 4; i < end; i += 2) parts.push(buf.readUInt16BE(i).toString(16));
    host = parts.join(":");
  } else return { need: false, ok: false, reply: SOCKS.badAddress };
  if (cmd !== 1) return { need: false, ok: false, reply: SOCKS.badCommand };
  return { need: false, ok: true, host, port: buf.readUInt16BE(end), rest: buf.subarray(end + 2) };
}

/** A SOCKS5 reply with an empty bound address. */
export function socksReply(code: number): Buffer {
  return Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
}

/**
 * The WebSocket's URL from the first bytes sent through the tunnel: `ws://host:port/path` from a plain
 * handshake's request line, `wss://host:port/` (path unseen) when they are TLS; undefined while the
 * request line is incomplete.
 */
export function webSocketUrl(host: string, port: number, first: Buffer): string | undefined {
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (first[0] === 0x16) return `wss://${authority}/`;
  const line = first.toString("latin1").split("\r\n")[0] ?? "";
  if (!first.includes("\r\n")) return first.length > 8192 ? `ws://${authority}/` : undefined;
  const target = /^[A-Z]+ (\S+) HTTP\/1\.[01]$/.exec(line)?.[1] ?? "/";
  return `ws://${authority}${target.startsWith("/") ? target : "/"}`;
}

/** What the SOCKS5 side needs from the proxy around it. */
export interface SocksDeps {
  /** Whether host:port may be reached, and at which address (the allowlist, then the address check). */
  destination(host: string, port: number): Promise<EgressAddress>;
  /** Record a refusal by the allowlist. */
  refuse(host: string, port: number): void;
  /** The consequence gate: may this WebSocket open? */
  ask(open: { url: string; host: string; port: number }): Promise<boolean>;
  /** Connect the client to address:port, `head` sent first, and pipe both ways. */
  tunnel(address: string, port: number, head: Buffer): void;
}

/**
 * A SOCKS5 client: Chromium opening a WebSocket. The host and port pass the allowlist as any other
 * request does; then the first bytes through the tunnel name the WebSocket, which is held for the
 * gate before anything reaches the server. Refused, a ws:// open gets a 403 to its handshake and a
 * wss:// one a closed socket: the page's WebSocket fails with an error event either way.
 */
export function serveSocks(client: Socket, first: Buffer, deps: SocksDeps): void {
  let buf = first;
  let stage: "greeting" | "request" | "first" | "done" = "greeting";
  let target: { host: string; port: number; address: string } | undefined;
  const step = (): void => {
    if (stage === "greeting") {
      const g = parseSocksGreeting(buf);
      if (g.need) return;
      if (!g.noAuth) return void client.end(Buffer.from([5, 0xff]));
      client.write(Buffer.from([5, 0]));
      buf = g.rest;
      stage = "request";
    }
    if (stage === "request") {
      const r = parseSocksRequest(buf);
      if (r.need) return;
      if (!r.ok) return void client.end(socksReply(r.reply));
      stage = "done"; // until the destination is known
      const { host, port } = r;
      const consumed = buf.length - r.rest.length;
      void deps.destination(host, port).then((dest) => {
        if (!dest.ok) {
          deps.refuse(host, port);
          return void client.end(socksReply(SOCKS.notAllowed));
        }
        target = { host, port, address: dest.address };
        // Success before the handshake: Chromium sends it (or its TLS hello) only after this reply.
        client.write(socksReply(SOCKS.ok));
        buf = buf.subarray(consumed); // with anything that arrived meanwhile
        stage = "first";
        step();
      });
      return;
    }
    if (stage === "first" && target && buf.length > 0) {
      const url = webSocketUrl(target.host, target.port, buf);
      if (url === undefined) return;
      stage = "done";
      client.pause();
      client.off("data", more);
      const t = target;
      const held = buf;
      void deps
        .ask({ url, host: t.host, port: t.port })
        .catch(() => false)
        .then((yes) => {
          if (!yes) {
            if (url.startsWith("ws://"))
              client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            else client.destroy();
            return;
          }
          client.resume();
          deps.tunnel(t.address, t.port, held);
        });
    }
  };
  const more = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    if (buf.length > 64 * 1024) return void client.destroy();
    step();
  };
  client.on("data", more);
  step();
}
