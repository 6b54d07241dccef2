import { isIPv4 } from "node:net";

/** Ports a rule without one allows: plain HTTP and HTTPS, what a package mirror speaks. */
export const DEFAULT_PORTS: readonly number[] = [80, 443];

/**
 * One allowlist entry, parsed. `exact` matches one host name or one IPv4 address; `suffix` matches
 * every name below it (`*.example.com` matches `a.example.com` and `a.b.example.com`, not
 * `example.com` itself — add that as its own rule).
 */
export interface AllowRule {
  kind: "exact" | "suffix" | "ipv4";
  /** Lower case, no trailing dot; for `suffix`, without the `*.`. */
  host: string;
  ports: readonly number[];
  /** The rule as the user wrote it, for messages. */
  source: string;
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A host name as a URL parser would accept it, lower case; undefined when it is not one. */
function hostName(raw: string): string | undefined {
  const name = raw.toLowerCase().replace(/\.$/, "");
  if (name.length === 0 || name.length > 253) return undefined;
  const labels = name.split(".");
  if (!labels.every((l) => LABEL.test(l))) return undefined;
  // A name whose last label is numeric is an IPv4 address to URL parsers and to getaddrinfo
  // ("127.1", "2130706433"): it is either a canonical dotted quad (its own kind) or refused.
  if (/^(0x[0-9a-f]*|[0-9]+)$/.test(labels[labels.length - 1] as string)) return undefined;
  return name;
}

function fail(rule: string, why: string, fix: string): never {
  throw new Error(`network allowlist: rule "${rule}" ${why} — ${fix}`);
}

/**
 * Parse one rule: `host`, `host:port`, `*.suffix`, `*.suffix:port`, an IPv4 address, or
 * `address:port`. Throws an error naming the rule, what is wrong with it and what to write instead.
 */
export function parseAllowRule(input: string): AllowRule {
  const source = input.trim();
  if (source.length === 0) fail(input, "is empty", "give a host such as pypi.org or 127.0.0.1:8080");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source))
    fail(
      source,
      "is a URL",
      `give the host only, e.g. "${URL.canParse(source) ? new URL(source).host : "pypi.org"}"`,
    );
  if (/[/?#@\s]/.test(source)) fail(source, "contains a path or credentials", "give host[:port] only");
  if (source.startsWith("[") || source.split(":").length > 2)
    fail(source, "is an IPv6 address", "IPv6 literals are not supported; allow the host by name");

  const colon = source.lastIndexOf(":");
  const hostPart = colon === -1 ? source : source.slice(0, colon);
  let ports = DEFAULT_PORTS;
  if (colon !== -1) {
    const portText = source.slice(colon + 1);
    const port = Number(portText);
    if (!/^[0-9]{1,5}$/.test(portText) || port < 1 || port > 65535)
      fail(source, `has port "${portText}"`, "a port is a number from 1 to 65535");
    ports = [port];
  }

  if (isIPv4(hostPart)) return { kind: "ipv4", host: hostPart, ports, source };
  const wildcard = hostPart.startsWith("*.");
  if (hostPart.includes("*") && !wildcard)
    fail(source, "has a wildcard that is not a leading *.", 'write "*.example.com" for every subdomain');
  if (wildcard) {
    const suffix = hostName(hostPart.slice(2));
    if (suffix === undefined || !suffix.includes("."))
      fail(source, "is too broad or not a host name", 'a wildcard needs a domain below it: "*.example.com"');
    return { kind: "suffix", host: suffix, ports, source };
  }
  const name = hostName(hostPart);
  if (name === undefined)
    fail(
      source,
      "is not a host name or IPv4 address",
      "letters, digits, '-' and '.' (e.g. pypi.org, 10.0.0.5)",
    );
  return { kind: "exact", host: name, ports, source };
}

/** Parse every rule, reporting the first bad one. An empty list is refused: say "none" instead. */
export function parseAllowlist(rules: readonly string[]): AllowRule[] {
  if (rules.length === 0)
    throw new Error('network allowlist: no rules — use network "none" to refuse everything, or name a host');
  return rules.map(parseAllowRule);
}

/** Normalise a requested host the way rules are: lower case, no trailing dot. */
export function normaliseHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, "");
}

/** The first rule that lets `host:port` through, or undefined. `host` must be normalised. */
export function matchRule(rules: readonly AllowRule[], host: string, port: number): AllowRule | undefined {
  return rules.find((r) => {
    if (!r.ports.includes(port)) return false;
    if (r.kind === "suffix") return host.endsWith(`.${r.host}`);
    return host === r.host;
  });
}

/** True when some rule names this exact IPv4 address and port: the only way to reach a host's own address. */
export function namesAddress(rules: readonly AllowRule[], address: string, port: number): boolean {
  return rules.some((r) => r.kind === "ipv4" && r.host === address && r.ports.includes(port));
}
