/**
 * A page (or a few) served on 127.0.0.1 at a free port, for tests that point a browser at HTML of
 * their own: `const site = await serveHtml(PAGE)` … `site.url` … `await site.close()`.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServedPages {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * `pages`: one page for every path, a map of paths to pages (others are 404), or a request listener
 * of the test's own.
 */
export async function serveHtml(
  pages: string | Record<string, string> | RequestListener,
): Promise<ServedPages> {
  const listener: RequestListener =
    typeof pages === "function"
      ? pages
      : (req, res) => {
          const page = typeof pages === "string" ? pages : pages[(req.url ?? "/").split("?")[0] ?? "/"];
          res
            .writeHead(page === undefined ? 404 : 200, { "content-type": "text/html" })
            .end(page ?? "not found");
        };
  const server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
