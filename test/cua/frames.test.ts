/**
 * Same-origin <iframe>s in the accessibility tree and set-of-mark: their elements are listed with
 * screen boxes offset by the frame's position (and clipped to it), and clicking one hits it. A
 * cross-origin frame — another port (same site, same process) or another site (its own process) — is
 * one element marked cross-origin, and nothing inside it is read.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserEnvironment } from "../../src/cua/env/browser.js";

const INNER = `<!doctype html><body style="margin:0">
<button id="in" style="position:absolute;left:10px;top:20px;width:80px;height:30px"
  onclick="parent.document.title = 'inner clicked'">Inner</button>
<button style="position:absolute;left:10px;top:400px;width:80px;height:30px">Hidden below the frame</button>
</body>`;
const SECRET = `<!doctype html><body><button>Secret</button></body>`;

let main: Server;
let other: Server;
let url = "";
let otherPort = 0;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  other = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(SECRET));
  otherPort = await listen(other);
  main = createServer((req, res) => {
    if (req.url === "/inner") return void res.writeHead(200, { "content-type": "text/html" }).end(INNER);
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><body style="margin:0">
<button style="position:absolute;left:10px;top:10px;width:80px;height:30px">Outer</button>
<iframe src="/inner" title="same" style="position:absolute;left:100px;top:200px;width:300px;height:200px;border:5px solid red;padding:0"></iframe>
<iframe src="http://127.0.0.1:${otherPort}/" title="port" style="position:absolute;left:500px;top:200px;width:300px;height:200px"></iframe>
<iframe src="http://localhost:${otherPort}/" title="site" style="position:absolute;left:900px;top:200px;width:300px;height:200px"></iframe>
</body>`);
  });
  url = `http://127.0.0.1:${await listen(main)}/`;
});

afterAll(async () => {
  await Promise.all([main, other].map((s) => new Promise((r) => s.close(r))));
});

describe("iframes in the accessibility tree and set-of-mark", () => {
  it("lists a same-origin frame's elements on the screen and marks cross-origin frames, unread", async () => {
    const env = new BrowserEnvironment();
    try {
      // Both ports named: a host without one is 80 and 443 only.
      await env.reset({
        url,
        allowHosts: [`127.0.0.1:${new URL(url).port}`, `127.0.0.1:${otherPort}`, `localhost:${otherPort}`],
      });
      const capture = await env.capture("som");
      const elements = capture.elements ?? [];
      const byName = (name: string) => elements.find((e) => e.name === name);
      expect(byName("Outer")?.box).toEqual({ x: 10, y: 10, width: 80, height: 30 });
      // The frame's box starts at (100, 200) and its border is 5 px: the document starts at (105, 205).
      expect(byName("Inner")?.box).toEqual({ x: 115, y: 225, width: 80, height: 30 });
      // Below the frame's 200 px: listed as out of sight, after what is in sight, with no click point.
      expect(byName("Hidden below the frame")?.states).toEqual(["offscreen"]);
      expect(elements.at(-1)?.name).toBe("Hidden below the frame");
      const frames = elements.filter((e) => e.role === "frame");
      expect(frames.map((f) => [f.name, f.states])).toEqual([
        [`cross-origin frame http://127.0.0.1:${otherPort}`, ["cross-origin"]],
        ["cross-origin frame of another site", ["cross-origin"]],
      ]);
      expect(frames[0]?.box).toMatchObject({ x: 500, y: 200 });
      expect(byName("Secret")).toBeUndefined();

      // The listed box is where the element is: a click at its centre hits the frame's button.
      const inner = byName("Inner")!;
      await env.act({ kind: "click", x: inner.box.x + 40, y: inner.box.y + 15 });
      expect(await env.evaluate("document.title")).toBe("inner clicked");
    } finally {
      await env.close();
    }
  });
});
