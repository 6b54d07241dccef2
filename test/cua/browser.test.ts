import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { BrowserEnvironment } from "../../src/cua/env/browser.js";
import { boxCentre } from "../../src/cua/env/serialize.js";
import { pngSize } from "../../src/cua/image.js";
import type { UiElement } from "../../src/cua/types.js";
import { needing } from "../../src/testing/needs.js";
import { processesWith } from "../../src/testing/processes.js";
import { EVENTUALLY } from "../../src/testing/time.js";

const PAGE = `<!doctype html><html><head><title>t</title><style>body{margin:0;font:16px sans-serif}</style></head><body>
<h1 id="status">idle</h1>
<button id="go" onclick="document.getElementById('status').textContent='clicked'">Go</button>
<input id="name" aria-label="Your name" onkeydown="if(event.key==='Enter')document.getElementById('status').textContent='entered '+this.value">
<button disabled>Locked</button>
<p id="cookie"></p>
<div style="height:3000px"></div>
<button id="bottom">Far below</button>
<script>document.getElementById('cookie').textContent = 'cookie=' + document.cookie;</script>
</body></html>`;

const FORM = `<!doctype html><body><form method="post" action="/slow-post">
<button style="width:200px;height:60px">Submit</button></form></body>`;
const POSTED = `<!doctype html><body><h1>Saved</h1><button>Posted</button></body>`;
const OPENER = `<!doctype html><body><a href="/popup" target="_blank" style="font-size:40px">Open</a></body>`;
const POPUP = `<!doctype html><body><button onclick="window.close()" style="width:200px;height:60px">Close me</button></body>`;
const WIDGETS = `<!doctype html><meta charset="utf-8"><body>
<div role="listbox" aria-label="Messages"><div role="option">Ada — minutes</div><div role="option">Bob — invoice</div></div>
<div role="grid"><div role="row"><div role="gridcell">Cell one</div></div></div>
<div role="tree"><div role="treeitem">Folder</div></div>
<input type="range" aria-label="Volume"><input type="search" aria-label="Find"><input type="number" aria-label="Count">
<button role="switch" aria-checked="false">Wi-Fi</button>
<div role="tablist"><div role="tab">Inbox</div></div>
<details><summary>More</summary>hidden</details>
<table><tr><th>Head</th></tr><tr><td>plain cell</td></tr></table>
</body>`;

let start: Server;
let other: Server;
/** POSTs to /slow-post being held: the test answers them when it chooses. */
const heldPosts: Array<() => void> = [];
/** While set, /slow-post is held until the test answers; otherwise it is answered after 300 ms. */
let holdPosts = false;
let otherHits: string[] = [];
let startUrl = "";
let otherUrl = "";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  other = createServer((req, res) => {
    otherHits.push(req.url ?? "");
    res.end("other origin");
  });
  otherUrl = await listen(other);
  start = createServer((req, res) => {
    if (req.url === "/slow-post") {
      // The response is slow, so a capture right after the click lands while the page is being replaced.
      const answer = () => res.writeHead(200, { "content-type": "text/html" }).end(POSTED);
      if (holdPosts) heldPosts.push(answer);
      else setTimeout(answer, 300);
      return;
    }
    const pages: Record<string, string> = {
      "/form": FORM,
      "/widgets": WIDGETS,
      "/opener": OPENER,
      "/popup": POPUP,
    };
    const page = pages[req.url ?? ""];
    if (page) {
      res.writeHead(200, { "content-type": "text/html" }).end(page);
      return;
    }
    if (req.url === "/redirect") {
      res.writeHead(302, { location: `${otherUrl}/after-redirect` }).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
  });
  startUrl = await listen(start);
});

afterAll(async () => {
  await new Promise((r) => start.close(r));
  await new Promise((r) => other.close(r));
});

const named = (els: UiElement[] | undefined, name: string) => {
  const el = els?.find((e) => e.name === name);
  if (!el) throw new Error(`no element named ${name} in ${JSON.stringify(els?.map((e) => e.name))}`);
  return el;
};

needing("chromium", !existsSync("/usr/bin/chromium") && "/usr/bin/chromium is missing").describe(
  "BrowserEnvironment (Debian chromium)",
  () => {
    const screen = { width: 800, height: 600 };
    const env = new BrowserEnvironment({ screen });

    afterAll(async () => {
      await env.close();
    });

    it("resets with cookies injected before the first load and captures at the screen size", async () => {
      await env.reset({
        url: startUrl,
        cookies: [{ name: "session", value: "pre-auth", domain: "127.0.0.1" }],
      });
      const cap = await env.capture("a11y");
      expect(pngSize(cap.png)).toEqual(screen);
      expect(cap.size).toEqual(screen);
      expect(await env.evaluate<string>("document.getElementById('cookie').textContent")).toBe(
        "cookie=session=pre-auth",
      );
      // Those in sight in document order, then the far-below button, marked out of sight.
      expect(cap.elements?.map((e) => [e.index, e.role, e.name, e.states ?? []])).toEqual([
        [1, "button", "Go", []],
        [2, "textbox", "Your name", []],
        [3, "button", "Locked", ["disabled"]],
        [4, "button", "Far below", ["offscreen"]],
      ]);
      expect(named(cap.elements, "Locked").states).toContain("disabled");
    });

    it("clicks at an element's box centre, types into an input and presses Enter", async () => {
      const before = await env.capture("a11y");
      await env.act({ kind: "click", ...boxCentre(named(before.elements, "Go")) });
      expect(await env.evaluate<string>("document.getElementById('status').textContent")).toBe("clicked");
      await env.act({ kind: "click", ...boxCentre(named(before.elements, "Your name")) });
      await env.act({ kind: "type", text: "Ada Lovelace, Countess" });
      await env.act({ kind: "key", keys: "Enter" });
      expect(await env.evaluate<string>("document.getElementById('status').textContent")).toBe(
        "entered Ada Lovelace, Countess",
      );
      const after = await env.capture("a11y");
      expect(named(after.elements, "Your name").states).toContain('value="Ada Lovelace, Countess"');
      // A key combo: select all and delete.
      await env.act({ kind: "key", keys: "ctrl+a" });
      await env.act({ kind: "key", keys: "Backspace" });
      expect(await env.evaluate<string>("document.getElementById('name').value")).toBe("");
    });

    it("scrolls, and the elements follow the screen", async () => {
      await env.act({ kind: "scroll", x: 400, y: 300, dx: 0, dy: 4000 });
      expect(await env.evaluate<number>("scrollY")).toBeGreaterThan(2000);
      const cap = await env.capture("a11y");
      const bottom = named(cap.elements, "Far below");
      expect(bottom.box.y).toBeGreaterThanOrEqual(0);
      expect(bottom.box.y + bottom.box.height).toBeLessThanOrEqual(screen.height);
      expect(bottom.states).toBeUndefined();
      expect(named(cap.elements, "Go").states).toEqual(["offscreen"]);
      await env.act({ kind: "click", ...boxCentre(bottom) });
      expect(await env.evaluate<string>("document.activeElement.id")).toBe("bottom");
    });

    it("draws numbered marks on a som capture and returns cleaned DOM", async () => {
      await env.act({ kind: "scroll", x: 400, y: 300, dx: 0, dy: -5000 });
      const plain = await env.capture("screenshot");
      const som = await env.capture("som");
      // Four listed, three marked: the one below the fold has no place on the screenshot.
      expect(som.elements?.map((e) => e.states?.includes("offscreen") ?? false)).toEqual([
        false,
        false,
        false,
        true,
      ]);
      const go = named(som.elements, "Go");
      // The box outline is drawn in the first mark colour (#e6194b) where the plain frame has none.
      const px = async (png: Buffer, x: number, y: number) => {
        const { data } = await sharp(png)
          .extract({ left: x, top: y, width: 1, height: 1 })
          .raw()
          .toBuffer({ resolveWithObject: true });
        return [...data.subarray(0, 3)];
      };
      const edge = {
        x: Math.round(go.box.x + go.box.width / 2),
        y: Math.round(go.box.y + go.box.height - 2),
      };
      expect(await px(som.png, edge.x, edge.y)).toEqual([0xe6, 0x19, 0x4b]);
      expect(await px(plain.png, edge.x, edge.y)).not.toEqual([0xe6, 0x19, 0x4b]);
      const dom = await env.capture("dom");
      expect(dom.dom).toContain('<button id="go">Go</button>');
      expect(dom.dom).toContain('aria-label="Your name"');
      expect(dom.dom).not.toContain("getElementById('cookie')");
    });

    it("refuses other origins below the page, redirects included, and records them", async () => {
      otherHits = [];
      const fetched = await env.evaluate<string>(
        `fetch(${JSON.stringify(`${otherUrl}/direct`)}).then(r => String(r.status), e => "error")`,
      );
      expect(["403", "error"]).toContain(fetched);
      await env.evaluate(`fetch("/redirect").then(r => r.status, e => "error")`);
      await env.evaluate(
        `new Promise(r => { const i = new Image(); i.onload = i.onerror = r; i.src = ${JSON.stringify(`${otherUrl}/img.png`)}; })`,
      );
      expect(otherHits).toEqual([]);
      // Chromium's own background calls (update checks, autofill) are refused too; look at the page's.
      const loopback = env.refusals.filter((r) => r.host === "127.0.0.1");
      expect(loopback.map((r) => new URL(r.request.split(" ")[1]!).pathname)).toEqual([
        "/direct",
        "/after-redirect",
        "/img.png",
      ]);
      // The start origin still works.
      expect(await env.evaluate<number>("fetch('/').then(r => r.status)")).toBe(200);
    });

    it("waits for the page a click submitted before the next capture", async () => {
      // First an answer held well past the network-quiet cap (1 s): the next capture still shows the new
      // page, not the form and not a page between documents.
      holdPosts = true;
      try {
        await env.reset({ url: `${startUrl}/form`, allowRequests: ["POST /slow-post"] });
        const form = await env.capture("a11y");
        const click = env.act({ kind: "click", ...boxCentre(named(form.elements, "Submit")) });
        await vi.waitFor(() => expect(heldPosts).toHaveLength(1), EVENTUALLY);
        setTimeout(() => heldPosts.shift()?.(), 1_500);
        await click;
        expect((await env.capture("a11y")).elements?.map((e) => e.name)).toEqual(["Posted"]);
      } finally {
        holdPosts = false;
        for (const answer of heldPosts.splice(0)) answer();
      }
      // Then answered after 300 ms, so captures race the page being replaced: never a pause of our own,
      // the environment settles the navigation, then captures the new page.
      for (let i = 0; i < 3; i++) {
        await env.reset({ url: `${startUrl}/form`, allowRequests: ["POST /slow-post"] });
        const before = await env.capture("a11y");
        await env.act({ kind: "click", ...boxCentre(named(before.elements, "Submit")) });
        const after = await env.capture("a11y");
        expect(after.elements?.map((e) => e.name)).toEqual(["Posted"]);
      }
    });

    it("follows a popup, and captures the page below once the popup closes itself", async () => {
      await env.reset({ url: `${startUrl}/opener` });
      const opener = await env.capture("a11y");
      await env.act({ kind: "click", ...boxCentre(named(opener.elements, "Open")) });
      const popup = await env.capture("a11y");
      expect(popup.elements?.map((e) => e.name)).toEqual(["Close me"]);
      await env.act({ kind: "click", ...boxCentre(named(popup.elements, "Close me")) });
      const back = await env.capture("a11y");
      expect(back.elements?.map((e) => e.name)).toEqual(["Open"]);
    });

    it("lists listbox options and the other interactive widget roles", async () => {
      await env.reset({ url: `${startUrl}/widgets` });
      const cap = await env.capture("a11y");
      expect(cap.elements?.map((e) => [e.role, e.name])).toEqual([
        ["option", "Ada — minutes"],
        ["option", "Bob — invoice"],
        ["gridcell", "Cell one"],
        ["treeitem", "Folder"],
        ["slider", "Volume"],
        ["textbox", "Find"],
        ["textbox", "Count"],
        ["checkbox", "Wi-Fi"],
        ["tab", "Inbox"],
        ["button", "More"],
      ]);
    });

    it("records no refusals for a page that asks for nothing foreign, but still records the page's own", async () => {
      await env.reset({ url: startUrl });
      await env.capture("a11y");
      // Chromium's update and sign-in calls go out within ~1 s of launch (refused by the proxy).
      await new Promise((r) => setTimeout(r, 1500));
      expect(env.refusals).toEqual([]);
      // A background host the page itself asks for is the page's business, and is recorded.
      await env.evaluate(`fetch("http://accounts.google.com/probe").catch(() => "refused")`);
      // (HSTS-preloaded, so it arrives as a CONNECT to port 443.)
      expect(env.refusals.map((r) => r.host)).toContain("accounts.google.com");
    });

    it("a fresh reset forgets the previous episode's profile", async () => {
      await env.reset({ url: startUrl });
      expect(await env.evaluate<string>("document.getElementById('cookie').textContent")).toBe("cookie=");
      expect(env.refusals.filter((r) => r.host === "127.0.0.1")).toEqual([]);
    });

    it("close stops this environment's Chromium and removes its profile", async () => {
      const profile = env.userDataDir!;
      expect(existsSync(profile)).toBe(true);
      await env.close();
      expect(existsSync(profile)).toBe(false);
      // Live processes only: a zombie's command line is empty.
      expect(processesWith(profile)).toEqual([]);
    });
  },
);
