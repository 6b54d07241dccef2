import { describe, expect, it } from "vitest";
import { isAllowed, originRule, parseAllowHost } from "./egress.js";

describe("egress allowlist rules", () => {
  const rules = ["127.0.0.1:4000", "*.example.com", "https://api.test", "docs.test"].map(parseAllowHost);

  it("matches host and port exactly, subdomains for wildcards, any port for a bare host", () => {
    expect(isAllowed(rules, "127.0.0.1", 4000)).toBe(true);
    expect(isAllowed(rules, "127.0.0.1", 4001)).toBe(false);
    expect(isAllowed(rules, "localhost", 4000)).toBe(false);
    expect(isAllowed(rules, "a.example.com", 443)).toBe(true);
    expect(isAllowed(rules, "example.com", 443)).toBe(false);
    expect(isAllowed(rules, "evilexample.com", 443)).toBe(false);
    expect(isAllowed(rules, "api.test", 443)).toBe(true);
    expect(isAllowed(rules, "api.test", 80)).toBe(false);
    expect(isAllowed(rules, "DOCS.test", 8080)).toBe(true);
  });

  it("defaults to the start URL's origin, with the scheme's port", () => {
    expect(originRule("http://127.0.0.1:4000/settings?x=1")).toBe("127.0.0.1:4000");
    expect(originRule("https://app.test/")).toBe("app.test:443");
    expect(() => originRule("file:///etc/passwd")).toThrow(/allowHosts/);
    expect(() => parseAllowHost("")).toThrow(/empty/);
  });
});
