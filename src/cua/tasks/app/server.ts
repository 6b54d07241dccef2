import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppState } from "../types.js";
import { esc, page } from "./html.js";
import { containsKey, initialState } from "./state.js";

/** What a route sees: the parsed request and the episode's state, which it may change. */
export interface RouteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Form fields (urlencoded) or the JSON body's string fields. */
  fields: Record<string, string>;
  state: AppState;
}

export type Reply =
  | { html: string; status?: number }
  | { json: unknown; status?: number }
  | { redirect: string };

export interface Route {
  method: "GET" | "POST";
  path: string;
  handle(req: RouteRequest): Reply;
}

/** The harness-side handle on one episode's app. */
export interface TaskApp {
  /** http://127.0.0.1:PORT */
  origin: string;
  host: string;
  /** The pre-authenticated session: a cookie the harness injects; the app has no sign-in form. */
  sessionCookie: { name: string; value: string; domain: string; path: string };
  state: AppState;
  close(): Promise<void>;
}

const SESSION_COOKIE = "northwind_session";
/** Bodies above this are refused: nothing in the app posts more than a short form. */
const MAX_BODY_BYTES = 64 * 1024;

/** Start the app on a random loopback port with fresh state. One app per episode. */
export async function startTaskApp(routes: Route[]): Promise<TaskApp> {
  const state = initialState();
  const token = randomBytes(16).toString("hex");
  const table = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  const server = createServer((req, res) => {
    handle(req, res, { state, token, table }).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`task app error: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    sessionCookie: { name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/" },
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Context {
  state: AppState;
  token: string;
  table: Map<string, Route>;
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  const url = new URL(req.url ?? "/", "http://app.invalid");
  const raw = await readBody(req);
  // The leak check sees every byte the page sends, before any route runs: URL, body, everything.
  const seen = `${decodeSafe(url.pathname + url.search)}\n${decodeSafe(raw)}`;
  if (containsKey(seen, ctx.state.apiKey)) ctx.state.keyLeaks.push(`${req.method} ${url.pathname}`);

  if (url.pathname === "/favicon.ico") return send(res, 204, "text/plain", "");
  if (cookie(req, SESSION_COOKIE) !== ctx.token) {
    return send(res, 401, "text/html", page("Signed out", SIGNED_OUT));
  }
  const method = req.method === "POST" ? "POST" : "GET";
  const route = ctx.table.get(`${method} ${url.pathname}`);
  if (!route) {
    return send(res, 404, "text/html", page("Not found", `<h1>Not found</h1><p>${esc(url.pathname)}</p>`));
  }
  const reply = route.handle({
    method,
    path: url.pathname,
    query: url.searchParams,
    fields: parseFields(raw, req.headers["content-type"] ?? ""),
    state: ctx.state,
  });
  if ("redirect" in reply) {
    res.writeHead(303, { location: reply.redirect });
    res.end();
  } else if ("json" in reply) send(res, reply.status ?? 200, "application/json", JSON.stringify(reply.json));
  else send(res, reply.status ?? 200, "text/html; charset=utf-8", reply.html);
}

const SIGNED_OUT = `<h1>You are signed out</h1>
<p>This app has no sign-in form. Sessions are minted by the harness and injected as a cookie.</p>`;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseFields(raw: string, contentType: string): Record<string, string> {
  const fields: Record<string, string> = {};
  if (contentType.includes("application/json")) {
    try {
      const json: unknown = JSON.parse(raw);
      if (json && typeof json === "object")
        for (const [k, v] of Object.entries(json)) if (typeof v === "string") fields[k] = v;
    } catch {
      // A malformed body is just an empty form; the route answers as it would to missing fields.
    }
  } else {
    for (const [k, v] of new URLSearchParams(raw)) fields[k] = v;
  }
  return fields;
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
