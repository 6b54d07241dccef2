import { BlockList, isIPv4, isIPv6 } from "node:net";
import { networkInterfaces } from "node:os";

/**
 * Addresses that lead back into the host itself or its link: loopback (where developer databases,
 * agents' dashboards and acilab's own servers listen), link-local (169.254.169.254 is the cloud
 * metadata service, which hands out credentials), the unspecified address (connecting to 0.0.0.0
 * reaches the local host), and every address of the host's own interfaces. A name rule never reaches
 * these — `localhost`, or a public name someone pointed at 127.0.0.1 — only a rule naming the address.
 */
const SPECIAL = new BlockList();
SPECIAL.addSubnet("127.0.0.0", 8, "ipv4");
SPECIAL.addSubnet("169.254.0.0", 16, "ipv4");
SPECIAL.addSubnet("0.0.0.0", 8, "ipv4");
SPECIAL.addAddress("::1", "ipv6");
SPECIAL.addAddress("::", "ipv6");
SPECIAL.addSubnet("fe80::", 10, "ipv6");

/** `::ffff:127.0.0.1` is 127.0.0.1 to the kernel: check it as that. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m?.[1] ?? address;
}

/** Why `address` is one of the host's own, or undefined when it is an ordinary remote address. */
export function hostOwnAddress(address: string): string | undefined {
  const a = unmapped(address);
  const family = isIPv4(a) ? "ipv4" : isIPv6(a) ? "ipv6" : undefined;
  if (family === undefined) return "not an IP address";
  if (SPECIAL.check(a, family)) {
    if (a.startsWith("127.") || a === "::1") return "loopback";
    if (a.startsWith("169.254.") || a.toLowerCase().startsWith("fe")) return "link-local";
    return "unspecified (the local host)";
  }
  for (const list of Object.values(networkInterfaces())) {
    for (const iface of list ?? []) if (unmapped(iface.address) === a) return "an address of this host";
  }
  return undefined;
}
