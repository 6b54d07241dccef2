/**
 * Egress by address, not only by name: the proxy resolves every host itself, refuses an address on
 * this machine or its networks (loopback, link-local, private, the machine's own interfaces, and the
 * other reserved ranges) unless the task names that very address, and connects to the address it
 * checked — never resolving twice, so a name cannot answer one address to the check and another to
 * the connection. An allowlisted name that resolves to 127.0.0.1 reaches nothing on the host.
 */

import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { networkInterfaces } from "node:os";

/** Resolves a host name to its addresses (the system's resolver; tests pass their own). */
export type Lookup = (host: string) => Promise<string[]>;

export const systemLookup: Lookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const RANGES: Array<[string, string, number, "ipv4" | "ipv6"]> = [
  ["a loopback", "127.0.0.0", 8, "ipv4"],
  ["a loopback", "::1", 128, "ipv6"],
  ["a private", "10.0.0.0", 8, "ipv4"],
  ["a private", "172.16.0.0", 12, "ipv4"],
  ["a private", "192.168.0.0", 16, "ipv4"],
  ["a private", "fc00::", 7, "ipv6"],
  ["a shared (carrier-grade NAT)", "100.64.0.0", 10, "ipv4"],
  ["a link-local", "169.254.0.0", 16, "ipv4"],
  ["a link-local", "fe80::", 10, "ipv6"],
  ["an unspecified (this host)", "0.0.0.0", 8, "ipv4"],
  ["an unspecified (this host)", "::", 128, "ipv6"],
  ["a reserved", "192.0.0.0", 24, "ipv4"],
  ["a reserved", "198.18.0.0", 15, "ipv4"],
  ["a reserved", "240.0.0.0", 4, "ipv4"],
  ["a multicast", "224.0.0.0", 4, "ipv4"],
  ["a multicast", "ff00::", 8, "ipv6"],
];

const LISTS = RANGES.map(([name, net, prefix, type]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { name, list };
});

/** `::ffff:1.2.3.4` as 1.2.3.4; brackets off; lower-case. */
export function plainAddress(address: string): string {
  const a = address.replace(/^\[|\]$/g, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped?.[1] ?? a;
}

/** The machine's own addresses (every interface's), read each time: interfaces come and go. */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const info of list ?? []) out.add(plainAddress(info.address.split("%")[0] ?? info.address));
  return out;
}

/** What kind of inside address `address` is, or undefined for an ordinary outside one. */
export function insideAddress(address: string): string | undefined {
  const a = plainAddress(address);
  const type = isIP(a) === 6 ? "ipv6" : isIP(a) === 4 ? "ipv4" : undefined;
  if (!type) return undefined;
  for (const { name, list } of LISTS) if (list.check(a, type)) return `${name} address`;
  if (ownAddresses().has(a)) return "an address of this machine";
  return undefined;
}

/** Where a connection may go: the checked address, or why not. */
export type EgressAddress = { ok: true; address: string } | { ok: false; reason: string };

/**
 * The address to connect to for `host` (a name or a literal). An inside address is refused unless
 * `named(address)` says the task's allowlist names exactly that address.
 */
export async function resolveEgress(
  host: string,
  named: (address: string) => boolean,
  resolve: Lookup = systemLookup,
): Promise<EgressAddress> {
  const h = plainAddress(host);
  let addresses: string[];
  if (isIP(h)) addresses = [h];
  else {
    try {
      addresses = (await resolve(h)).map(plainAddress);
    } catch (err) {
      return { ok: false, reason: `${host} did not resolve (${(err as Error).message.split("\n")[0]})` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `${host} did not resolve to any address` };
  // Every address the name has is judged: a resolver may hand out any of them on the next ask.
  for (const a of addresses) {
    const inside = insideAddress(a);
    if (inside && !named(a))
      return {
        ok: false,
        reason: `${host} resolves to ${a}, ${inside}; name that address itself in allow_hosts to reach it`,
      };
  }
  return { ok: true, address: addresses[0] as string };
}
