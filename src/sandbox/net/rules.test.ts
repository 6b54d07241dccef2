import { describe, expect, it } from "vitest";
import { parseNetworkPolicy } from "./network.js";
import { matchRule, parseAllowlist, parseAllowRule } from "./rules.js";

describe("allowlist rules", () => {
  it("reads host, host:port, *.suffix and IPv4 forms; no port means 80 and 443", () => {
    expect(parseAllowRule("PyPI.org.")).toMatchObject({ kind: "exact", host: "pypi.org", ports: [80, 443] });
    expect(parseAllowRule("mirror.local:3142")).toMatchObject({
      kind: "exact",
      host: "mirror.local",
      ports: [3142],
    });
    expect(parseAllowRule("*.pythonhosted.org")).toMatchObject({ kind: "suffix", host: "pythonhosted.org" });
    expect(parseAllowRule(" 10.0.0.5:8080 ")).toMatchObject({
      kind: "ipv4",
      host: "10.0.0.5",
      ports: [8080],
    });
    expect(parseAllowRule("localhost")).toMatchObject({ kind: "exact", host: "localhost" });
  });

  it("refuses rules that are not a host, saying what to write instead", () => {
    const cases: Array<[string, RegExp]> = [
      ["", /is empty/],
      ["https://pypi.org/simple", /is a URL — give the host only, e\.g\. "pypi\.org"/],
      ["pypi.org/simple", /path/],
      ["user@pypi.org", /credentials/],
      ["pypi.org:0", /port "0"/],
      ["pypi.org:70000", /port "70000"/],
      ["pypi.org:http", /port "http"/],
      ["*", /wildcard/],
      ["*.com", /too broad/],
      ["py*.org", /wildcard that is not a leading/],
      ["[::1]:80", /IPv6/],
      ["::1", /IPv6/],
      ["127.1", /not a host name or IPv4/],
      ["2130706433", /not a host name or IPv4/],
      ["bad_host!", /not a host name/],
    ];
    for (const [rule, message] of cases) expect(() => parseAllowRule(rule), rule).toThrow(message);
    expect(() => parseAllowlist([])).toThrow(/no rules — use network "none"/);
  });

  it("matches exact names and addresses on their ports, and wildcards on subdomains only", () => {
    const rules = parseAllowlist(["pypi.org", "*.pythonhosted.org", "10.0.0.5:3142"]);
    expect(matchRule(rules, "pypi.org", 443)?.source).toBe("pypi.org");
    expect(matchRule(rules, "pypi.org", 80)?.source).toBe("pypi.org");
    expect(matchRule(rules, "pypi.org", 8080)).toBeUndefined();
    expect(matchRule(rules, "evilpypi.org", 443)).toBeUndefined();
    expect(matchRule(rules, "files.pythonhosted.org", 443)?.source).toBe("*.pythonhosted.org");
    expect(matchRule(rules, "a.b.pythonhosted.org", 443)?.source).toBe("*.pythonhosted.org");
    expect(matchRule(rules, "pythonhosted.org", 443)).toBeUndefined();
    expect(matchRule(rules, "evilpythonhosted.org", 443)).toBeUndefined();
    expect(matchRule(rules, "10.0.0.5", 3142)?.source).toBe("10.0.0.5:3142");
    expect(matchRule(rules, "10.0.0.5", 443)).toBeUndefined();
  });

  it("validates the sandbox's network option: none, an allowlist, or a clear error", () => {
    expect(parseNetworkPolicy(undefined)).toBeUndefined();
    expect(parseNetworkPolicy("none")).toBeUndefined();
    expect(parseNetworkPolicy({ allow: ["pypi.org"] })).toHaveLength(1);
    expect(() => parseNetworkPolicy("host")).toThrow(/network must be "none", "loopback" or \{ allow:/);
    expect(() => parseNetworkPolicy({ allow: "pypi.org" })).toThrow(/network must be/);
    expect(() => parseNetworkPolicy({ allow: ["https://x.org"] })).toThrow(
      /rule "https:\/\/x\.org" is a URL/,
    );
  });
});
