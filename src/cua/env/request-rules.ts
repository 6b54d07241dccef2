/**
 * Which of a page's requests can change state on a service, and the task's rules that allow some of
 * them (`allow_requests:` in a task file). Pure: the request hold (./request-hold.ts) and the egress
 * proxy's WebSocket side ask these, and every rule is a unit test.
 *
 * A rule is `METHOD PATTERN`: `POST /api/search`, `GET /search?*`, `* /api/**`, `WS /live`,
 * `PUT https://api.example.com/v1/**`. A pattern that starts with `/` is on the app's own origin (the
 * start page's); one with a scheme names its origin. `*` stands for any characters but `/` (and, in
 * the path, but `?`); `**` for any characters at all. The query is part of what is matched:
 * `POST /account` does not allow `POST /account?action=delete`.
 */

/** What a held request is: a fetch/XHR/beacon, a form submission, any navigation, a WebSocket open. */
export type RequestKind = "request" | "form" | "beacon" | "navigation" | "websocket";

export interface RequestRule {
  /** Upper-case method, `*` for any, `WS` for a WebSocket open. */
  method: string;
  /** The pattern as written. */
  pattern: string;
  /** The pattern's origin (`http://host:port`), or undefined for the app's own. */
  origin: string | undefined;
  /** Path and query, as a regular expression. */
  path: RegExp;
}

/** Methods that only read (RFC 9110's safe methods, less TRACE, which Chromium never sends). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const METHOD = /^(\*|WS|[A-Z][A-Z-]*)$/;

/**
 * Whether a request can change state and so must be held: any method but GET, HEAD and OPTIONS;
 * every form submission and beacon whatever its method; every WebSocket open.
 */
export function changesState(method: string, kind: RequestKind): boolean {
  if (kind === "form" || kind === "beacon" || kind === "websocket") return true;
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** Parse one `METHOD PATTERN` rule; throws a message that says what to write. */
export function parseRequestRule(entry: string): RequestRule {
  const text = entry.trim();
  const m = /^(\S+)\s+(\S+)$/.exec(text);
  const method = m?.[1]?.toUpperCase() ?? "";
  const pattern = m?.[2] ?? "";
  if (!m || !METHOD.test(method))
    throw new Error(
      `"${entry}" is not "METHOD PATTERN" — write e.g. "POST /api/search", "GET /search?*", "WS /live" or "* https://api.example.com/**"`,
    );
  if (pattern.startsWith("/")) return { method, pattern, origin: undefined, path: pathPattern(pattern) };
  let url: URL;
  try {
    url = new URL(pattern.replace(/\*/g, "__acilab_star__"));
  } catch {
    throw new Error(`"${entry}": the pattern must start with "/" (the app's own origin) or with a scheme`);
  }
  if (!/^(https?|wss?):$/.test(url.protocol) || url.hostname.includes("__acilab_star__"))
    throw new Error(
      `"${entry}": a full pattern names one http(s) or ws(s) origin (no * in the host), then its path`,
    );
  const origin = `${url.protocol}//${url.host}`;
  const slash = pattern.indexOf("/", pattern.indexOf("://") + 3);
  const rest = slash < 0 ? "/" : pattern.slice(slash);
  return { method, pattern, origin: normaliseOrigin(origin), path: pathPattern(rest) };
}

export function parseRequestRules(entries: readonly string[]): RequestRule[] {
  return entries.map(parseRequestRule);
}

/**
 * Whether `rules` allow `method` on `url` (`appOrigin`: the start page's origin, what `/…` patterns
 * mean). A WebSocket open is asked as method "WS" and matches only WS rules; `*` covers every
 * other method.
 */
export function allowedByRules(
  rules: readonly RequestRule[],
  method: string,
  url: string,
  appOrigin: string,
): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const asked = method.toUpperCase();
  const origin = normaliseOrigin(`${u.protocol}//${u.host}`);
  const pathQuery = u.pathname + u.search;
  return rules.some((r) => {
    if (r.method === "WS" ? asked !== "WS" : r.method !== "*" ? r.method !== asked : asked === "WS")
      return false;
    const ruleOrigin = r.origin ?? normaliseOrigin(appOrigin);
    // A WebSocket to the app's origin is ws(s):// on the same host and port.
    const same = asked === "WS" ? sameHostPort(ruleOrigin, origin) : ruleOrigin === origin;
    return same && r.path.test(pathQuery);
  });
}

/** A path pattern as an anchored expression: `**` anything, `*` anything but `/` (and `?` before the query). */
function pathPattern(pattern: string): RegExp {
  const q = pattern.indexOf("?");
  const part = (text: string, star: string) =>
    text
      .split("**")
      .map((chunk) => chunk.split("*").map(escapeRegExp).join(star))
      .join(".*");
  const path = part(q < 0 ? pattern : pattern.slice(0, q), "[^/?]*");
  const query = q < 0 ? "" : `\\?${part(pattern.slice(q + 1), ".*")}`;
  return new RegExp(`^${path}${query}$`);
}

/** `http://host:80` → `http://host`, lower-case: how URL would print the origin. */
function normaliseOrigin(origin: string): string {
  try {
    const u = new URL(origin);
    return `${u.protocol}//${u.host}`.toLowerCase();
  } catch {
    return origin.toLowerCase();
  }
}

/** Same host and port, whatever the scheme (http://h:1 and ws://h:1; https://h and wss://h). */
function sameHostPort(a: string, b: string): boolean {
  const hp = (o: string) => {
    const u = new URL(o);
    const secure = u.protocol === "https:" || u.protocol === "wss:";
    return `${u.hostname}:${u.port || (secure ? 443 : 80)}:${secure}`;
  };
  try {
    return hp(a) === hp(b);
  } catch {
    return false;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
