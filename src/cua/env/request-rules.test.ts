import { describe, expect, it } from "vitest";
import { allowedByRules, changesState, parseRequestRule, parseRequestRules } from "./request-rules.js";

const APP = "http://127.0.0.1:4000";

describe("what a request can change", () => {
  it("holds every method but GET, HEAD and OPTIONS, and every form, beacon and WebSocket", () => {
    expect(changesState("GET", "request")).toBe(false);
    expect(changesState("head", "navigation")).toBe(false);
    expect(changesState("OPTIONS", "request")).toBe(false);
    for (const m of ["POST", "PUT", "PATCH", "DELETE", "PROPFIND"])
      expect(changesState(m, "request")).toBe(true);
    expect(changesState("GET", "form")).toBe(true);
    expect(changesState("POST", "beacon")).toBe(true);
    expect(changesState("GET", "websocket")).toBe(true);
  });
});

describe("allow_requests rules", () => {
  const allowed = (rules: string[], method: string, url: string) =>
    allowedByRules(parseRequestRules(rules), method, url, APP);

  it("match the method and the app's path, query included", () => {
    expect(allowed(["POST /api/search"], "POST", `${APP}/api/search`)).toBe(true);
    expect(allowed(["POST /api/search"], "PUT", `${APP}/api/search`)).toBe(false);
    expect(allowed(["POST /api/search"], "POST", `${APP}/api/search?x=1`)).toBe(false);
    expect(allowed(["POST /account"], "POST", `${APP}/account?action=delete-account`)).toBe(false);
    expect(allowed(["post /api/search"], "POST", `${APP}/api/search`)).toBe(true);
  });

  it("* is one segment (not the query), ** is anything; after ? a * takes anything", () => {
    expect(allowed(["POST /api/*"], "POST", `${APP}/api/save`)).toBe(true);
    expect(allowed(["POST /api/*"], "POST", `${APP}/api/a/b`)).toBe(false);
    expect(allowed(["POST /api/*"], "POST", `${APP}/api/save?x`)).toBe(false);
    expect(allowed(["POST /api/**"], "POST", `${APP}/api/a/b?c=/d`)).toBe(true);
    expect(allowed(["GET /search?*"], "GET", `${APP}/search?q=a/b c`)).toBe(true);
    expect(allowed(["GET /search?*"], "GET", `${APP}/search`)).toBe(false);
    expect(allowed(["* /api/**"], "DELETE", `${APP}/api/item/3`)).toBe(true);
  });

  it("a pattern with a scheme names its own origin; a / pattern only the app's", () => {
    const rules = ["PUT https://api.example.com/v1/**", "POST /save"];
    expect(allowed(rules, "PUT", "https://api.example.com/v1/items/2")).toBe(true);
    expect(allowed(rules, "PUT", "https://api.example.com:443/v1/x")).toBe(true);
    expect(allowed(rules, "PUT", "https://evil.example.com/v1/x")).toBe(false);
    expect(allowed(rules, "POST", "http://127.0.0.1:4001/save")).toBe(false);
    expect(allowed(rules, "POST", "http://localhost:4000/save")).toBe(false);
  });

  it("WS rules are for WebSocket opens only, on the app's host and port", () => {
    expect(allowed(["WS /live"], "WS", "ws://127.0.0.1:4000/live")).toBe(true);
    expect(allowed(["WS /live"], "WS", "ws://127.0.0.1:4001/live")).toBe(false);
    expect(allowed(["WS /live"], "POST", `${APP}/live`)).toBe(false);
    expect(allowed(["* /live"], "WS", "ws://127.0.0.1:4000/live")).toBe(false);
    expect(allowed(["WS wss://chat.example.com/**"], "WS", "wss://chat.example.com/")).toBe(true);
  });

  it("refuses what is not a rule, saying what to write", () => {
    expect(() => parseRequestRule("/api/search")).toThrow(
      /not "METHOD PATTERN" — write e\.g\. "POST \/api\/search"/,
    );
    expect(() => parseRequestRule("POST api/search")).toThrow(/must start with "\/"/);
    expect(() => parseRequestRule("POST https://*.example.com/x")).toThrow(/no \* in the host/);
    expect(() => parseRequestRule("POST ftp://x/y")).toThrow(/http\(s\) or ws\(s\)/);
  });
});
