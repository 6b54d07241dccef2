/**
 * The egress proxy's SOCKS5 side, which Chromium uses for WebSockets and nothing else: given
 * `--proxy-server=http=P;https=P;socks=socks5://P`, it sends ws:// and wss:// through the SOCKS proxy
 * (RFC 6455 §4.1's advice, which Chromium follows) and every other request through the HTTP one
 * (measured here: two WebSockets came as SOCKS5 greetings, an https fetch as CONNECT). So every
 * WebSocket open of every page, frame and worker arrives here, where the consequence gate can hold it.
 * A plain ws:// handshake is read for its path; a wss:// one is TLS, whose path stays unseen.
 */

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
