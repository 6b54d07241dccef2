/**
 * A task file's `app: {static: DIR}`: the folder served on 127.0.0.1 at a free port for one episode.
 * GET and HEAD only; a folder answers with its index.html or 404 (never a listing); nothing outside
 * the folder is reachable, by `..`, an encoded `..` or a symlink.
 */
import { createReadStream, realpathSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, sep } from "node:path";

/** What browsers need to render and run a benchmark's pages; anything else is a download. */
const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".xml": "application/xml",
};

export function mimeType(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? "application/octet-stream";
}

export interface RunningApp {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `127.0.0.1:PORT`, what the egress allowlist lets through. */
  host: string;
  close(): Promise<void>;
}

/** The file a request path maps to inside `root` (already real), or undefined when it must not be served. */
export function resolveInRoot(root: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]?.split("#")[0] ?? "/");
  } catch {
    return undefined;
  }
  if (path.includes("\0")) return undefined;
  // Dot-files and dot-folders (.git, .env, .ssh) are a folder's private parts, not its site.
  if (path.split("/").some((seg) => seg.startsWith(".") && seg !== ".well-known")) return undefined;
  let file = join(root, path);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  try {
    if (statSync(file).isDirectory()) file = join(file, "index.html");
    const real = realpathSync(file);
    if (real !== root && !real.startsWith(root + sep)) return undefined;
    return statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

export async function serveStatic(dir: string): Promise<RunningApp> {
  const root = realpathSync(dir);
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    const file = resolveInRoot(root, req.url ?? "/");
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    res.writeHead(200, {
      "content-type": mimeType(file),
      "content-length": statSync(file).size,
      // Fresh per episode: a cached page from an earlier episode must not leak its state in.
      "cache-control": "no-store",
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  const port = await listen(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}
