import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { hostOwnAddress } from "./addresses.js";
import { type AllowRule, DEFAULT_PORTS, matchRule, namesAddress, normaliseHost } from "./rules.js";

/** One decision of the proxy, as a run reports it. */
export interface NetDecision {
  /** ISO time of the decision. */
  time: string;
  /** CONNECT for a tunnel (HTTPS), else the plain-HTTP method. */
  method: string;
  host: string;
  port: number;
  allowed: boolean;
  /** The rule that allowed it, or why it was refused. */
  reason: string;
  /** The address the proxy connected to (allowed decisions only): resolved once, on the host. */
  address?: string;
}

export type Verdict =
  | { allowed: true; address: string; rule: AllowRule }
  /** `status`: 403 for the policy, 502 when an allowed name does not resolve. */
  | { allowed: false; status: 403 | 502; reason: string; message: string };

export type Lookup = (host: string) => Promise<string[]>;

/** The host's resolver: every address of the name, IPv4 and IPv6, in the resolver's order. */
export const hostLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The flag that would allow `host:port`: ports 80 and 443 need no suffix. */
export function allowFlag(host: string, port: number): string {
  return `--allow-net ${host}${DEFAULT_PORTS.includes(port) ? "" : `:${port}`}`;
}

/**
 * Whether the sandbox may reach `host:port`, and at which address. Names are resolved here on the
 * host (the sandbox has no DNS), and the caller connects to the address returned, never to the name
 * again, so a name that changes its answer between check and connect gains nothing. An address of
 * the host itself (loopback, link-local, its interfaces) is reached only through a rule that names
 * that address: `localhost` or a name pointed at 127.0.0.1 does not get to the host's services.
 */
export async function decide(
  rules: readonly AllowRule[],
  rawHost: string,
  port: number,
  lookup: Lookup = hostLookup,
): Promise<Verdict> {
  const host = normaliseHost(rawHost);
  const target = `${host}:${port}`;
  const rule = matchRule(rules, host, port);
  if (!rule) {
    const allowed = rules.map((r) => r.source).join(", ");
    return {
      allowed: false,
      status: 403,
      reason: "not in the allowlist",
      message: `${target} is not in the sandbox's network allowlist (${allowed}). To allow it, add ${allowFlag(host, port)}.`,
    };
  }
  if (isIP(host)) return { allowed: true, address: host, rule };

  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return {
      allowed: false,
      status: 502,
      reason: `does not resolve (${code})`,
      message: `${host} is allowed but does not resolve on the host (${code}); check the name.`,
    };
  }
  const own: string[] = [];
  for (const address of addresses) {
    const why = hostOwnAddress(address);
    if (why === undefined || namesAddress(rules, address, port)) return { allowed: true, address, rule };
    own.push(`${address} (${why})`);
  }
  // Only IPv4 addresses can be named in a rule (see rules.ts): suggest one of those.
  const first = addresses.find((a) => isIP(a) === 4);
  return {
    allowed: false,
    status: own.length > 0 ? 403 : 502,
    reason: own.length > 0 ? `resolves to the host's own address ${own.join(", ")}` : "resolves to nothing",
    message:
      own.length > 0
        ? `${host} resolves to ${own.join(", ")}, an address of the host itself, which a host name never reaches.${first ? ` If the sandbox should reach it, allow the address itself: ${allowFlag(first, port)}.` : ""}`
        : `${host} is allowed but resolves to no address on the host.`,
  };
}

/**
 * The decisions as lines for a person: one per distinct request target and verdict, in first-seen
 * order, with a count when repeated — e.g. `refused CONNECT evil.example:443 (not in the allowlist) ×3`.
 */
export function formatDecisions(log: readonly NetDecision[]): string[] {
  const lines = new Map<string, { text: string; count: number }>();
  for (const d of log) {
    const text = `${d.allowed ? "allowed" : "refused"} ${d.method} ${d.host}:${d.port}${d.allowed ? "" : ` (${d.reason})`}`;
    const seen = lines.get(text);
    if (seen) seen.count++;
    else lines.set(text, { text, count: 1 });
  }
  return [...lines.values()].map((l) => (l.count > 1 ? `${l.text} ×${l.count}` : l.text));
}
