import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { hostOwnAddress } from "./addresses.js";
import { decide, formatDecisions, type Lookup } from "./policy.js";
import { parseAllowlist } from "./rules.js";

/** A resolver with fixed answers, so the cases do not depend on the machine's DNS. */
const fakeDns =
  (answers: Record<string, string[]>): Lookup =>
  async (host) => {
    const a = answers[host];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return a;
  };

describe("network decisions", () => {
  it("classifies the host's own addresses: loopback, link-local, unspecified, its interfaces", () => {
    expect(hostOwnAddress("127.0.0.1")).toBe("loopback");
    expect(hostOwnAddress("127.8.9.10")).toBe("loopback");
    expect(hostOwnAddress("::1")).toBe("loopback");
    expect(hostOwnAddress("::ffff:127.0.0.1")).toBe("loopback");
    expect(hostOwnAddress("169.254.169.254")).toBe("link-local");
    expect(hostOwnAddress("fe80::1")).toBe("link-local");
    expect(hostOwnAddress("0.0.0.0")).toMatch(/unspecified/);
    expect(hostOwnAddress("151.101.0.223")).toBeUndefined();
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === "IPv4");
    if (external) expect(hostOwnAddress(external.address)).toBe("an address of this host");
  });

  it("allows a listed name at the address it resolves to", async () => {
    const rules = parseAllowlist(["pypi.org"]);
    const v = await decide(rules, "PyPI.org", 443, fakeDns({ "pypi.org": ["151.101.0.223"] }));
    expect(v).toMatchObject({ allowed: true, address: "151.101.0.223" });
  });

  it("refuses what no rule names, with the flag that would allow it", async () => {
    const rules = parseAllowlist(["pypi.org"]);
    const v = await decide(rules, "evil.example", 443, fakeDns({}));
    expect(v).toMatchObject({ allowed: false, status: 403, reason: "not in the allowlist" });
    if (!v.allowed)
      expect(v.message).toMatch(
        /evil\.example:443 is not in .*\(pypi\.org\)\. .*--allow-net evil\.example\./,
      );
    const odd = await decide(rules, "pypi.org", 8443, fakeDns({}));
    if (!odd.allowed) expect(odd.message).toMatch(/--allow-net pypi\.org:8443/);
  });

  it("never lets a name reach the host's own loopback or link-local addresses", async () => {
    const rules = parseAllowlist(["localhost:8000", "rebind.example", "meta.example"]);
    const dns = fakeDns({
      localhost: ["::1", "127.0.0.1"],
      "rebind.example": ["127.0.0.1"],
      "meta.example": ["169.254.169.254"],
    });
    const local = await decide(rules, "localhost", 8000, dns);
    expect(local).toMatchObject({ allowed: false, status: 403 });
    if (!local.allowed) {
      expect(local.reason).toMatch(/host's own address ::1 \(loopback\), 127\.0\.0\.1 \(loopback\)/);
      expect(local.message).toMatch(/allow the address itself: --allow-net 127\.0\.0\.1:8000/);
    }
    expect(await decide(rules, "rebind.example", 443, dns)).toMatchObject({ allowed: false });
    expect(await decide(rules, "meta.example", 80, dns)).toMatchObject({ allowed: false });
  });

  it("reaches a host address only through a rule that names that address and port", async () => {
    const rules = parseAllowlist(["127.0.0.1:8000", "localhost:8000"]);
    const dns = fakeDns({ localhost: ["127.0.0.1"] });
    expect(await decide(rules, "127.0.0.1", 8000, dns)).toMatchObject({
      allowed: true,
      address: "127.0.0.1",
    });
    // The name resolves to an address a rule names on this port: allowed, at that address.
    expect(await decide(rules, "localhost", 8000, dns)).toMatchObject({
      allowed: true,
      address: "127.0.0.1",
    });
    expect(await decide(rules, "127.0.0.1", 8001, dns)).toMatchObject({ allowed: false });
  });

  it("skips the host's own addresses among several and connects to a remote one", async () => {
    const rules = parseAllowlist(["mixed.example"]);
    const v = await decide(
      rules,
      "mixed.example",
      443,
      fakeDns({ "mixed.example": ["127.0.0.1", "93.184.215.14"] }),
    );
    expect(v).toMatchObject({ allowed: true, address: "93.184.215.14" });
  });

  it("answers an allowed name that does not resolve with 502, not 403", async () => {
    const v = await decide(parseAllowlist(["gone.example"]), "gone.example", 443, fakeDns({}));
    expect(v).toMatchObject({ allowed: false, status: 502, reason: "does not resolve (ENOTFOUND)" });
  });
});

describe("formatDecisions", () => {
  it("prints one line per target and verdict, counting repeats", () => {
    const d = (method: string, host: string, allowed: boolean) => ({
      time: "2026-01-01T00:00:00.000Z",
      method,
      host,
      port: 443,
      allowed,
      reason: allowed ? "rule pypi.org" : "not in the allowlist",
    });
    expect(
      formatDecisions([
        d("CONNECT", "pypi.org", true),
        d("CONNECT", "evil.example", false),
        d("CONNECT", "pypi.org", true),
      ]),
    ).toEqual(["allowed CONNECT pypi.org:443 ×2", "refused CONNECT evil.example:443 (not in the allowlist)"]);
  });
});
