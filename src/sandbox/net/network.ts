import { z } from "zod";
import { type AllowRule, parseAllowlist } from "./rules.js";

/**
 * What a sandbox may reach. "none": its own loopback only. `{ allow }`: in addition, the hosts the
 * rules name (`host`, `host:port`, `*.suffix`, an IPv4 address; ports 80 and 443 when none is given),
 * through an HTTP proxy on the host — everything else is refused with 403.
 */
/**
 * A sandbox's network: "none" — no sockets but Unix ones; "loopback" — inet sockets on the sandbox's
 * own loopback only (a test suite's servers), nothing past it; an allowlist — that, plus the proxy
 * to the hosts named.
 */
export type NetworkPolicy = "none" | "loopback" | { allow: string[] };

const NetworkPolicySchema = z.union([
  z.literal("none"),
  z.literal("loopback"),
  z.object({ allow: z.array(z.string()) }).strict(),
]);

/**
 * Validate a sandbox's `network` option: undefined and "none" give no rules; an allowlist gives its
 * parsed rules, or an error naming the bad rule and how to write it.
 */
export function parseNetworkPolicy(value: unknown): AllowRule[] | undefined {
  if (value === undefined) return undefined;
  const parsed = NetworkPolicySchema.safeParse(value);
  if (!parsed.success)
    throw new Error(
      `sandbox: network must be "none", "loopback" or { allow: ["host[:port]", …] }, got ${JSON.stringify(value)}`,
    );
  return typeof parsed.data === "string" ? undefined : parseAllowlist(parsed.data.allow);
}
